// Checks a custom function tool's parameters schema and example input with Ajv in a worker thread
// (tools/check-tool-schema.ts starts one for a schema with a `pattern`). Such a pattern may backtrack
// catastrophically; matching it runs in this isolate, which the caller terminates at its deadline, so the server's
// event loop is never blocked by it. Plain JavaScript, like sandbox-worker.mjs, so it starts without a loader.
import { parentPort, workerData } from "node:worker_threads";
import { checkSchema } from "./schema-check-core.mjs";

// Loading Ajv is not the user's doing: the caller's deadline starts with this message.
parentPort.postMessage({ ready: true });
parentPort.postMessage(checkSchema(workerData.parameters, workerData.exampleInput));
