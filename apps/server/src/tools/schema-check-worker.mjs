// Checks a custom function tool's parameters schema and example input with Ajv in a worker thread
// (tools/check-tool-schema.ts starts one per check). A user's schema may hold a `pattern` with catastrophic
// backtracking; matching it runs in this isolate, which the caller terminates at its deadline, so the server's
// event loop is never blocked by it. Plain JavaScript, like sandbox-worker.mjs, so it starts without a loader.
import { parentPort, workerData } from "node:worker_threads";
import AjvModule from "ajv";

const Ajv = AjvModule.default ?? AjvModule;
const { parameters, exampleInput } = workerData;

/** "/city must be string" — ajv's own short words, with the place in the input they refer to. */
function describeErrors(errors) {
  return (errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`)
    .join("; ");
}

function check() {
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

// Loading Ajv is not the user's doing: the caller's deadline starts with this message.
parentPort.postMessage({ ready: true });
parentPort.postMessage(check());
