// The Ajv check of a custom function tool's parameters schema and example input, shared by the server (schemas
// without a `pattern`, checked in place) and schema-check-worker.mjs (schemas with one, checked in a worker that is
// stopped at a deadline). Plain JavaScript so the worker loads it without a TypeScript loader.
import AjvModule from "ajv";

const Ajv = AjvModule.default ?? AjvModule;

/** "/city must be string" — ajv's own short words, with the place in the input they refer to. */
function describeErrors(errors) {
  return (errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`)
    .join("; ");
}

export function checkSchema(parameters, exampleInput) {
  // Not strict: unknown keywords (title, examples, x-…) are common in hand-written schemas and harmless.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  if (!ajv.validateSchema(parameters)) return { ok: false, path: "parameters", reason: describeErrors(ajv.errors) };
  let validate;
  try {
    validate = ajv.compile(parameters);
  } catch (e) {
    return { ok: false, path: "parameters", reason: e instanceof Error ? e.message : String(e) };
  }
  if (exampleInput !== undefined && !validate(exampleInput)) {
    return { ok: false, path: "exampleInput", reason: describeErrors(validate.errors) };
  }
  return { ok: true };
}
