/**
 * Structured output: a value that validates against the request's JSON schema (`response_format: json_schema`),
 * with words taken from the question where a string is free. It reads the keywords that schema generators
 * (zod, pydantic, the OpenAI and AI SDK helpers) write: type (also as a list), properties, required, items,
 * enum, const, anyOf/oneOf/allOf, $ref into $defs/definitions (recursion ends at the least value allowed),
 * string lengths and formats, number bounds and array lengths.
 */
import type { JsonSchema } from "../../chat/types.ts";
import { stringFor } from "./compose.ts";
import type { Rng } from "./rng.ts";

/** Below this depth optional parts are left out and arrays kept at their minimum, so recursive schemas end. */
const MAX_DEPTH = 12;
/** Items per array when the schema does not ask for more: enough to show the shape. */
const DEFAULT_ITEMS = 2;
const MAX_ITEMS = 8;

interface Input {
  root: JsonSchema;
  question: string;
  /** The prose answer, for string fields that carry the answer itself. */
  answer: string;
  rng: Rng;
}

const ANSWER_KEY = /^(answer|content|text|reply|response|summary|explanation|description|message)$/i;

export function valueFromSchema(schema: JsonSchema, input: Omit<Input, "root">): unknown {
  return valueFor(schema, "", { ...input, root: schema }, 0);
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | boolean | undefined {
  if (ref === "#") return root;
  let at: unknown = root;
  for (const raw of ref.replace(/^#\//, "").split("/")) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!at || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return typeof at === "boolean" || (at && typeof at === "object") ? (at as JsonSchema | boolean) : undefined;
}

/** allOf as one schema: properties and required lists joined, other keywords from the first that has them. */
function merged(s: JsonSchema, input: Input): JsonSchema {
  const parts = (s.allOf as unknown[]).map((p) => (typeof p === "object" && p ? deref(p as JsonSchema, input) : {}));
  const out: JsonSchema = { ...s };
  delete out.allOf;
  for (const p of parts) {
    for (const [k, v] of Object.entries(p)) {
      if (k === "properties") out.properties = { ...(out.properties ?? {}), ...(v as Record<string, JsonSchema>) };
      else if (k === "required") out.required = [...new Set([...(out.required ?? []), ...(v as string[])])];
      else if (out[k] === undefined) out[k] = v;
    }
  }
  return out;
}

function deref(s: JsonSchema, input: Input, hops = 0): JsonSchema {
  if (typeof s.$ref !== "string" || hops > 16) return s;
  const target = resolveRef(s.$ref, input.root);
  if (target === undefined || typeof target === "boolean") return {};
  const { $ref: _ref, ...rest } = s;
  return deref({ ...target, ...rest }, input, hops + 1);
}

function allowsNull(s: JsonSchema): boolean {
  return s.type === "null" || (Array.isArray(s.type) && s.type.includes("null"));
}

function valueFor(raw: JsonSchema | boolean | undefined, key: string, input: Input, depth: number): unknown {
  if (raw === undefined || raw === true) return stringFor(key, {}, input.question);
  if (raw === false) return null;
  let s = deref(raw, input);
  if (Array.isArray(s.allOf)) s = merged(s, input);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) {
    const q = input.question.toLowerCase();
    return s.enum.find((e) => typeof e === "string" && q.includes(e.toLowerCase())) ?? s.enum[0];
  }
  const branches = (s.anyOf ?? s.oneOf) as (JsonSchema | boolean)[] | undefined;
  if (Array.isArray(branches) && branches.length) {
    const isNull = (b: JsonSchema | boolean) =>
      typeof b === "object" && allowsNull(deref(b, input)) && !deref(b, input).properties;
    // Deep in a recursive schema the null branch ends it; elsewhere the first real branch answers.
    const pick =
      depth >= MAX_DEPTH ? (branches.find(isNull) ?? branches[0]) : (branches.find((b) => !isNull(b)) ?? branches[0]);
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    return valueFor(typeof pick === "object" ? { ...rest, ...pick } : pick, key, input, depth + 1);
  }
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (depth >= MAX_DEPTH && types.includes("null")) return null;
  const type =
    types.find((t) => t !== "null") ??
    (types[0] === "null" ? "null" : s.properties ? "object" : s.items ? "array" : "string");
  switch (type) {
    case "object":
      return objectOf(s, input, depth);
    case "array":
      return arrayOf(s, key, input, depth);
    case "integer":
    case "number":
      return numberOf(s, type, input);
    case "boolean":
      return !/\b(no|not|false|don't)\b|不/.test(input.question);
    case "null":
      return null;
    default:
      return stringOf(s, key, input);
  }
}

function objectOf(s: JsonSchema, input: Input, depth: number): Record<string, unknown> {
  const props = s.properties ?? {};
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(props)) {
    // Every property while shallow (a fuller answer), only the required ones deep in a recursive schema.
    if (depth >= MAX_DEPTH && !required.has(key)) continue;
    // defineProperty: a property named __proto__ is data, not the prototype.
    Object.defineProperty(out, key, {
      value: valueFor(props[key], key, input, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  for (const key of required) {
    if (!Object.hasOwn(out, key)) {
      const extra = typeof s.additionalProperties === "object" ? (s.additionalProperties as JsonSchema) : undefined;
      Object.defineProperty(out, key, {
        value: valueFor(extra, key, input, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

function arrayOf(s: JsonSchema, key: string, input: Input, depth: number): unknown[] {
  const min = typeof s.minItems === "number" ? s.minItems : 0;
  const max = typeof s.maxItems === "number" ? s.maxItems : Number.POSITIVE_INFINITY;
  const wanted = depth >= MAX_DEPTH ? min : Math.max(min, DEFAULT_ITEMS);
  const count = Math.min(max, Math.max(min, Math.min(MAX_ITEMS, wanted)));
  const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as JsonSchema[]) : [];
  const item = Array.isArray(s.items) ? undefined : (s.items as JsonSchema | boolean | undefined);
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    let v = valueFor(prefix[i] ?? item, key, input, depth + 1);
    // uniqueItems: a second string differs by its number; other kinds stop at one item.
    if (s.uniqueItems === true && out.some((x) => JSON.stringify(x) === JSON.stringify(v))) {
      if (typeof v === "string") v = `${v} ${i + 1}`;
      else if (i >= min) break;
    }
    out.push(v);
  }
  return out;
}

function numberOf(s: JsonSchema, type: "integer" | "number", input: Input): number {
  const n = /-?\d+(?:\.\d+)?/.exec(input.question);
  let v = n ? Number(n[0]) : type === "integer" ? 1 + input.rng.int(9) : Math.round(input.rng.next() * 100) / 10;
  if (type === "integer") v = Math.round(v);
  const lo = typeof s.minimum === "number" ? s.minimum : undefined;
  const hi = typeof s.maximum === "number" ? s.maximum : undefined;
  const xlo = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined;
  const xhi = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : undefined;
  const step = type === "integer" ? 1 : 0.5;
  if (lo !== undefined && v < lo) v = type === "integer" ? Math.ceil(lo) : lo;
  if (xlo !== undefined && v <= xlo) v = type === "integer" ? Math.floor(xlo) + 1 : xlo + step;
  if (hi !== undefined && v > hi) v = type === "integer" ? Math.floor(hi) : hi;
  if (xhi !== undefined && v >= xhi) v = type === "integer" ? Math.ceil(xhi) - 1 : xhi - step;
  if (typeof s.multipleOf === "number" && s.multipleOf > 0) v = Math.ceil(v / s.multipleOf) * s.multipleOf;
  return v;
}

const FORMATS: Record<string, string> = {
  "date-time": "2025-01-01T00:00:00Z",
  date: "2025-01-01",
  time: "00:00:00Z",
  email: "user@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  uuid: "00000000-0000-4000-8000-000000000000",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  hostname: "example.com",
};

function stringOf(s: JsonSchema, key: string, input: Input): string {
  const format = typeof s.format === "string" ? s.format : undefined;
  let v =
    format && FORMATS[format]
      ? FORMATS[format]!
      : ANSWER_KEY.test(key)
        ? input.answer
        : stringFor(key, s, input.question);
  if (format === "date") v = /\d{4}-\d{2}-\d{2}/.exec(input.question)?.[0] ?? v;
  if (format === "email") v = /[\w.+-]+@[\w-]+\.[\w.]+/.exec(input.question)?.[0] ?? v;
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Number.POSITIVE_INFINITY;
  if ([...v].length > max) v = [...v].slice(0, max).join("");
  while ([...v].length < min) v += v ? ` ${v}` : "x";
  if ([...v].length > max) v = [...v].slice(0, max).join("");
  return v;
}
