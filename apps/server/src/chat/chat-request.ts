/**
 * Parses and validates a chat-completions body (docs/api-compat.md §2.1–§2.5) into a `ChatRequest`. Hand-written rather
 * than a zod schema because every failure must read exactly like the API we are compatible with:
 * `Invalid request: <what is wrong, naming the field>`; the first problem found is reported.
 */
import { findModel, type ModelEntry, resolveRoutedModel } from "@moonport/contracts";
import { clip, gatewayErrors } from "./errors.ts";
import { countPromptTokens } from "./prompt-tokens.ts";
import type { ChatMessage, ChatRequest, ImagePart, JsonSchema, Role, ToolCall, ToolDef } from "./types.ts";

const ROLES: readonly string[] = ["system", "user", "assistant", "tool"];

const BUILTIN_FUNCTIONS = ["$web_search"] as const;
const TOOL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$/;
const MAX_TOOLS = 128;
const MAX_N = 5;
const MAX_STOP = 5;
const MAX_STOP_BYTES = 32;
const DEFAULT_MAX_TOKENS = 1024;
/** At or below this temperature sampling is greedy, so several choices would be identical (docs/api-compat.md §2.1). */
const NEAR_ZERO_TEMPERATURE = 0.001;

const invalid = gatewayErrors.invalidRequest;

/** Deepest nesting of schemas in tool parameters (properties, items); real tools use a handful of levels. */
const MAX_SCHEMA_DEPTH = 32;
/** Largest minItems/maxItems a tool schema may ask for. */
const MAX_SCHEMA_ITEMS = 1024;

/**
 * The parts of a tool's JSON schema the gateway reads (to count it, and the simulator to build arguments) must
 * have the right shapes at every level; anything else in the schema passes through untouched.
 */
function checkSchema(s: unknown, at: string, depth: number): void {
  if (typeof s === "boolean") return;
  if (!isObject(s)) throw invalid(`${at} must be a JSON schema object`);
  if (depth > MAX_SCHEMA_DEPTH) throw invalid(`${at}: schemas may nest at most ${MAX_SCHEMA_DEPTH} levels deep`);
  if (
    s.type !== undefined &&
    typeof s.type !== "string" &&
    !(Array.isArray(s.type) && s.type.every((t) => typeof t === "string"))
  ) {
    throw invalid(`${at}.type must be a string or an array of strings`);
  }
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((r) => typeof r === "string"))) {
    throw invalid(`${at}.required must be an array of property names`);
  }
  if (s.enum !== undefined && !Array.isArray(s.enum)) throw invalid(`${at}.enum must be an array`);
  for (const k of ["minItems", "maxItems"] as const) {
    const v = s[k];
    if (v !== undefined && !(typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX_SCHEMA_ITEMS)) {
      throw invalid(`${at}.${k} must be an integer between 0 and ${MAX_SCHEMA_ITEMS}`);
    }
  }
  for (const k of ["minimum", "maximum"] as const) {
    if (s[k] !== undefined && !(typeof s[k] === "number" && Number.isFinite(s[k]))) {
      throw invalid(`${at}.${k} must be a number`);
    }
  }
  if (s.properties !== undefined) {
    if (!isObject(s.properties)) throw invalid(`${at}.properties must be an object`);
    for (const [name, sub] of Object.entries(s.properties))
      checkSchema(sub, `${at}.properties.${clip(name, 32)}`, depth + 1);
  }
  if (s.items !== undefined) {
    if (Array.isArray(s.items)) {
      for (const [i, sub] of s.items.entries()) checkSchema(sub, `${at}.items[${i}]`, depth + 1);
    } else checkSchema(s.items, `${at}.items`, depth + 1);
  }
  for (const k of ["minLength", "maxLength"] as const) {
    const v = s[k];
    if (v !== undefined && !(typeof v === "number" && Number.isInteger(v) && v >= 0)) {
      throw invalid(`${at}.${k} must be a non-negative integer`);
    }
  }
  for (const k of ["anyOf", "oneOf", "allOf"] as const) {
    const list = s[k];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) throw invalid(`${at}.${k} must be a non-empty array of schemas`);
    for (const [i, sub] of list.entries()) checkSchema(sub, `${at}.${k}[${i}]`, depth + 1);
  }
  for (const k of ["$defs", "definitions"] as const) {
    const defs = s[k];
    if (defs === undefined) continue;
    if (!isObject(defs)) throw invalid(`${at}.${k} must be an object`);
    for (const [name, sub] of Object.entries(defs)) checkSchema(sub, `${at}.${k}.${clip(name, 32)}`, depth + 1);
  }
  // Only references inside the schema itself: nothing is ever fetched.
  if (s.$ref !== undefined && !(typeof s.$ref === "string" && s.$ref.startsWith("#"))) {
    throw invalid(`${at}.$ref must be a reference inside the schema, starting with #`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function optionalNumber(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) {
    throw invalid(`${field} must be a number between ${min} and ${max}`);
  }
  return v;
}

function optionalInteger(body: Record<string, unknown>, field: string, min: number, max?: number): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || (max !== undefined && v > max)) {
    throw invalid(
      max === undefined
        ? `${field} must be an integer greater than or equal to ${min}`
        : `${field} must be an integer between ${min} and ${max}`,
    );
  }
  return v;
}

/** Looks up the model; unknown ids are 404 like the original API. */
function requireModel(body: Record<string, unknown>): ModelEntry {
  const id = body.model;
  if (id === undefined || id === null || id === "") throw invalid("model is required");
  if (typeof id !== "string") throw invalid("model must be a string");
  const model = findModel(id);
  if (!model?.listed) throw gatewayErrors.modelNotFound(id);
  return model;
}

const DATA_URL = /^data:(image\/(?:png|jpeg|jpg|webp|gif));base64,/;

function parseContent(
  raw: unknown,
  at: string,
  role: Role,
  model: ModelEntry,
): { text: string; images: ImagePart[] } | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === "string") return { text: raw, images: [] };
  if (!Array.isArray(raw)) throw invalid(`${at}.content must be a string or an array of content parts`);
  const texts: string[] = [];
  const images: ImagePart[] = [];
  raw.forEach((part, j) => {
    const p = `${at}.content[${j}]`;
    if (!isObject(part)) throw invalid(`${p} must be an object`);
    if (part.type === "text") {
      if (typeof part.text !== "string") throw invalid(`${p}.text must be a string`);
      texts.push(part.text);
    } else if (part.type === "image_url") {
      if (role !== "user") throw invalid(`${p}: images are only allowed in user messages`);
      if (!model.capabilities.vision) {
        throw invalid(`model ${model.id} does not support image input; use a vision model`);
      }
      const img = part.image_url;
      const url = typeof img === "string" ? img : isObject(img) ? img.url : undefined;
      if (typeof url !== "string") throw invalid(`${p}.image_url.url must be a string`);
      const m = DATA_URL.exec(url);
      if (!m) {
        throw invalid(
          `${p}.image_url.url must be a base64 data URL such as data:image/png;base64,...; image links are not supported`,
        );
      }
      const base64 = url.slice(m[0].length);
      if (base64.length === 0) throw invalid(`${p}.image_url.url has no image data`);
      images.push({ type: "image_url", mediaType: m[1]!.replace("jpg", "jpeg"), base64 });
    } else {
      throw invalid(`${p}.type must be one of text, image_url`);
    }
  });
  return { text: texts.join("\n"), images };
}

function parseToolCalls(raw: unknown, at: string): ToolCall[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw invalid(`${at}.tool_calls must be an array`);
  return raw.map((c, j) => {
    const p = `${at}.tool_calls[${j}]`;
    if (!isObject(c)) throw invalid(`${p} must be an object`);
    if (typeof c.id !== "string" || c.id === "") throw invalid(`${p}.id must be a non-empty string`);
    const type = c.type ?? "function";
    if (type !== "function" && type !== "builtin_function") {
      throw invalid(`${p}.type must be one of function, builtin_function`);
    }
    const fn = c.function;
    if (!isObject(fn) || typeof fn.name !== "string" || fn.name === "") {
      throw invalid(`${p}.function.name must be a non-empty string`);
    }
    const args = fn.arguments ?? "";
    if (typeof args !== "string") throw invalid(`${p}.function.arguments must be a JSON string`);
    return { id: c.id, type, function: { name: fn.name, arguments: args } };
  });
}

function parseMessages(raw: unknown, model: ModelEntry): ChatMessage[] {
  if (raw === undefined || raw === null) throw invalid("messages is required");
  if (!Array.isArray(raw)) throw invalid("messages must be an array");
  if (raw.length === 0) throw invalid("messages must not be empty");
  const last = raw.length - 1;
  return raw.map((m, i): ChatMessage => {
    const at = `messages[${i}]`;
    if (!isObject(m)) throw invalid(`${at} must be an object`);
    if (typeof m.role !== "string" || !ROLES.includes(m.role)) {
      throw invalid(`${at}.role must be one of system, user, assistant, tool`);
    }
    const role = m.role as Role;
    if (m.name !== undefined && m.name !== null && typeof m.name !== "string") {
      throw invalid(`${at}.name must be a string`);
    }
    const name = typeof m.name === "string" && m.name !== "" ? m.name : undefined;
    const partial = m.partial === true;
    if (m.partial !== undefined && m.partial !== null && typeof m.partial !== "boolean") {
      throw invalid(`${at}.partial must be a boolean`);
    }
    if (partial && (i !== last || role !== "assistant")) {
      throw invalid(
        `${at}.partial: partial mode is only allowed on the last message, which must be an assistant message`,
      );
    }
    const toolCalls = role === "assistant" ? parseToolCalls(m.tool_calls, at) : undefined;
    if (role !== "assistant" && m.tool_calls !== undefined && m.tool_calls !== null) {
      throw invalid(`${at}.tool_calls is only allowed on assistant messages`);
    }
    const content = parseContent(m.content, at, role, model);
    const empty = !content || (content.text === "" && content.images.length === 0);
    // An assistant turn that only calls tools, or a partial prefix given by `name` alone, may have no text.
    if (empty && !(role === "assistant" && (toolCalls?.length || (partial && name)))) {
      throw invalid(`${at}.content must not be empty`);
    }
    const msg: ChatMessage = { role, content: content?.text ?? "", images: content?.images ?? [] };
    if (name) msg.name = name;
    if (toolCalls?.length) msg.toolCalls = toolCalls;
    if (partial) msg.partial = true;
    if (role === "tool") {
      if (typeof m.tool_call_id !== "string" || m.tool_call_id === "") {
        throw invalid(`${at}.tool_call_id is required for tool messages`);
      }
      msg.toolCallId = m.tool_call_id;
    }
    return msg;
  });
}

/**
 * Every tool message answers a call of the assistant turn before it, one message per call (docs/api-compat.md §2.4).
 */
function checkToolMessages(messages: ChatMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "tool") {
      throw invalid(
        `tool_call_id not found: messages[${i}].tool_call_id "${clip(m.toolCallId ?? "")}" does not answer a tool call of the preceding assistant message`,
      );
    }
    if (m.role !== "assistant" || !m.toolCalls) continue;
    const ids = new Set(m.toolCalls.map((c) => c.id));
    if (ids.size !== m.toolCalls.length) throw invalid(`messages[${i}].tool_calls contains duplicate ids`);
    let j = i + 1;
    while (j < messages.length && messages[j]!.role === "tool") {
      const t = messages[j]!;
      if (!ids.delete(t.toolCallId!)) {
        throw invalid(
          `tool_call_id not found: messages[${j}].tool_call_id "${clip(t.toolCallId ?? "")}" does not answer a tool call of messages[${i}]`,
        );
      }
      j++;
    }
    if (ids.size > 0 && !(m.partial && j === messages.length)) {
      throw invalid(
        `messages[${i}] has ${m.toolCalls.length} tool_calls but ${m.toolCalls.length - ids.size} tool messages answer them; every tool call needs exactly one tool message`,
      );
    }
    i = j - 1;
  }
}

function parseTools(raw: unknown, model: ModelEntry): ToolDef[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid("tools must be an array");
  if (raw.length > MAX_TOOLS) throw invalid(`tools must contain at most ${MAX_TOOLS} tools`);
  if (raw.length > 0 && !model.capabilities.toolCalls) throw invalid(`model ${model.id} does not support tools`);
  const seen = new Set<string>();
  return raw.map((t, i): ToolDef => {
    const at = `tools[${i}]`;
    if (!isObject(t)) throw invalid(`${at} must be an object`);
    if (t.type !== "function" && t.type !== "builtin_function") {
      throw invalid(`${at}.type must be one of function, builtin_function`);
    }
    const fn = t.function;
    if (!isObject(fn)) throw invalid(`${at}.function must be an object`);
    const name = fn.name;
    if (typeof name !== "string" || name === "") throw invalid(`${at}.function.name is required`);
    if (seen.has(name)) throw invalid(`function name ${clip(name)} is duplicated`);
    seen.add(name);
    if (t.type === "builtin_function") {
      if (!(BUILTIN_FUNCTIONS as readonly string[]).includes(name)) {
        throw invalid(
          `${at}.function.name: unknown builtin function ${clip(name)}; available: ${BUILTIN_FUNCTIONS.join(", ")}`,
        );
      }
      if (name === "$web_search" && !model.capabilities.webSearch) {
        throw invalid(`model ${model.id} does not support $web_search`);
      }
      return { type: "builtin_function", name, description: "", parameters: { type: "object", properties: {} } };
    }
    if (name.includes("$")) {
      throw invalid(
        `${at}.function.name: the $ prefix is reserved for builtin functions; declare them with type builtin_function`,
      );
    }
    if (!TOOL_NAME_PATTERN.test(name)) {
      throw invalid(`${at}.function.name must match ^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$`);
    }
    if (fn.description !== undefined && fn.description !== null && typeof fn.description !== "string") {
      throw invalid(`${at}.function.description must be a string`);
    }
    const params = fn.parameters ?? { type: "object", properties: {} };
    if (!isObject(params) || params.type !== "object") {
      throw invalid(`${at}.function.parameters must be a JSON schema whose root has type object`);
    }
    checkSchema(params, `${at}.function.parameters`, 1);
    return {
      type: "function",
      name,
      description: typeof fn.description === "string" ? fn.description : "",
      parameters: params as JsonSchema,
    };
  });
}

function parseStop(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list) || list.length > MAX_STOP || !list.every((s) => typeof s === "string")) {
    throw invalid(`stop must be a string or an array of at most ${MAX_STOP} strings`);
  }
  list.forEach((s: string, i) => {
    if (s === "") throw invalid(`stop[${i}] must not be empty`);
    if (Buffer.byteLength(s, "utf8") > MAX_STOP_BYTES)
      throw invalid(`stop[${i}] must be at most ${MAX_STOP_BYTES} bytes`);
  });
  return list as string[];
}

function parseToolChoice(
  raw: unknown,
  tools: ToolDef[],
  model: ModelEntry,
  thinking: boolean,
): ChatRequest["toolChoice"] {
  if (raw === undefined || raw === null || raw === "auto") return "auto";
  if (raw === "none") return "none";
  if (raw === "required") {
    // Era B: K2 models may be told to call a tool, but not while thinking (docs/api-compat.md §2.1).
    if (!model.capabilities.toolChoiceRequired) {
      throw invalid(`model ${model.id} does not support tool_choice 'required'; use 'auto' or 'none'`);
    }
    if (thinking) throw invalid("tool_choice 'required' is not supported with thinking enabled; use 'auto' or 'none'");
    if (tools.length === 0) throw invalid("tool_choice 'required' needs at least one tool in tools");
    return "required";
  }
  if (isObject(raw) && raw.type === "function" && isObject(raw.function) && typeof raw.function.name === "string") {
    const name = raw.function.name;
    if (!tools.some((t) => t.name === name)) {
      throw invalid(`tool_choice names function ${clip(name)}, which is not in tools`);
    }
    return { name };
  }
  throw invalid("tool_choice must be one of none, auto, required");
}

/** Whether the model thinks on this request: thinking models do unless told not to (docs/api-compat.md §2.1). */
function parseThinking(raw: unknown, model: ModelEntry): boolean {
  if (raw === undefined || raw === null) return model.capabilities.reasoning;
  if (!isObject(raw) || (raw.type !== "enabled" && raw.type !== "disabled")) {
    throw invalid("thinking.type must be one of enabled, disabled");
  }
  return raw.type === "enabled";
}

const SCHEMA_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * `text`, `json_object`, or Era B's `json_schema` with `{name, strict?, description?, schema}` (docs/api-compat.md
 * §2.1). The schema gets the guards of a tool's parameters and is passed on untouched.
 */
function parseResponseFormat(raw: unknown, model: ModelEntry): Pick<ChatRequest, "responseFormat" | "jsonSchema"> {
  if (raw === undefined || raw === null) return { responseFormat: "text", jsonSchema: null };
  if (!isObject(raw) || (raw.type !== "text" && raw.type !== "json_object" && raw.type !== "json_schema")) {
    throw invalid("response_format.type must be one of text, json_object, json_schema");
  }
  if (raw.type === "text") return { responseFormat: "text", jsonSchema: null };
  if (raw.type === "json_object") {
    if (!model.capabilities.jsonMode) throw invalid(`model ${model.id} does not support response_format json_object`);
    return { responseFormat: "json_object", jsonSchema: null };
  }
  if (!model.capabilities.jsonSchema) throw invalid(`model ${model.id} does not support response_format json_schema`);
  const at = "response_format.json_schema";
  const js = raw.json_schema;
  if (!isObject(js)) throw invalid(`${at} must be an object with name and schema`);
  if (typeof js.name !== "string" || !SCHEMA_NAME_PATTERN.test(js.name)) {
    throw invalid(`${at}.name must match ^[a-zA-Z0-9_-]{1,64}$`);
  }
  if (js.strict !== undefined && js.strict !== null && typeof js.strict !== "boolean") {
    throw invalid(`${at}.strict must be a boolean`);
  }
  if (js.description !== undefined && js.description !== null && typeof js.description !== "string") {
    throw invalid(`${at}.description must be a string`);
  }
  const schema = js.schema;
  if (!isObject(schema) || schema.type !== "object") {
    throw invalid(`${at}.schema must be a JSON schema whose root has type object`);
  }
  checkSchema(schema, `${at}.schema`, 1);
  return {
    responseFormat: "json_schema",
    jsonSchema: { name: js.name, strict: js.strict === true, schema: schema as JsonSchema },
  };
}

/** Validates everything about a chat body except token limits, which need the prompt count. */
export function parseChatRequest(body: unknown): ChatRequest {
  if (!isObject(body)) throw invalid("the request body must be a JSON object");
  const model = requireModel(body);
  const messages = parseMessages(body.messages, model);
  checkToolMessages(messages);
  if (body.functions !== undefined || body.function_call !== undefined) {
    throw invalid("functions and function_call are not supported; use tools and tool_choice");
  }

  // max_completion_tokens is the newer name of max_tokens (docs/api-compat.md §2.1); max_tokens wins when both are
  // sent, and an error names the field the client used.
  const maxTokens = optionalInteger(
    body,
    body.max_tokens === undefined && body.max_completion_tokens !== undefined ? "max_completion_tokens" : "max_tokens",
    1,
  );
  const temperature = optionalNumber(body, "temperature", 0, 1) ?? model.defaultTemperature;
  const topP = optionalNumber(body, "top_p", 0, 1) ?? 1;
  const n = optionalInteger(body, "n", 1, MAX_N) ?? 1;
  if (n > 1 && temperature <= NEAR_ZERO_TEMPERATURE) {
    throw invalid(`n must be 1 when temperature is 0 or close to 0 (temperature is ${temperature})`);
  }
  const presencePenalty = optionalNumber(body, "presence_penalty", -2, 2) ?? 0;
  const frequencyPenalty = optionalNumber(body, "frequency_penalty", -2, 2) ?? 0;

  const { responseFormat, jsonSchema } = parseResponseFormat(body.response_format, model);

  const stop = parseStop(body.stop);
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== "boolean") {
    throw invalid("stream must be a boolean");
  }
  const stream = body.stream === true;
  let includeUsage = false;
  if (body.stream_options !== undefined && body.stream_options !== null) {
    const so = body.stream_options;
    if (!isObject(so)) throw invalid("stream_options must be an object");
    if (so.include_usage !== undefined && so.include_usage !== null && typeof so.include_usage !== "boolean") {
      throw invalid("stream_options.include_usage must be a boolean");
    }
    includeUsage = so.include_usage === true;
  }

  const tools = parseTools(body.tools, model);
  const toolChoice = parseToolChoice(body.tool_choice, tools, model, parseThinking(body.thinking, model));
  const seed = optionalInteger(body, "seed", Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);

  const lastMsg = messages[messages.length - 1]!;
  let partial: ChatRequest["partial"] = null;
  if (lastMsg.partial) {
    if (!model.capabilities.partial) throw invalid(`model ${model.id} does not support partial mode`);
    partial = { prefix: lastMsg.content, ...(lastMsg.name ? { name: lastMsg.name } : {}) };
    if (toolChoice === "required") throw invalid("tool_choice 'required' cannot be combined with partial mode");
  }

  return {
    requestedModel: model.id,
    model,
    billedModel: model,
    messages,
    maxTokens: maxTokens ?? DEFAULT_MAX_TOKENS,
    maxTokensDefaulted: maxTokens === undefined,
    temperature,
    topP,
    n,
    presencePenalty,
    frequencyPenalty,
    responseFormat,
    jsonSchema,
    stop,
    stream,
    includeUsage,
    tools,
    toolChoice,
    seed,
    partial,
    promptTokens: 0,
    body,
  };
}

/**
 * Counts the prompt, applies the context rule (prompt + max_tokens ≤ context) and resolves -auto models to the
 * sibling that fits (docs/api-compat.md §2.9). When max_tokens was not given, the default is lowered to what still
 * fits.
 */
export async function applyTokenLimits(req: ChatRequest): Promise<ChatRequest> {
  const ceiling = Math.max(
    req.model.contextWindow,
    ...(req.model.routesTo ?? []).map((id) => findModel(id)?.contextWindow ?? 0),
  );
  const prompt = await countPromptTokens(req.messages, req.tools, ceiling);
  req.promptTokens = prompt;
  if (prompt >= ceiling) throw gatewayErrors.inputTooLong();
  if (req.maxTokensDefaulted && !req.model.routesTo) req.maxTokens = Math.min(req.maxTokens, ceiling - prompt);
  if (prompt + req.maxTokens > ceiling) throw gatewayErrors.exceededModelTokenLimit(ceiling);
  req.billedModel = resolveRoutedModel(req.model, prompt + req.maxTokens);
  return req;
}
