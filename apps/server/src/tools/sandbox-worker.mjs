// The QuickJS sandbox of custom function tools, run in its own worker thread (tools/run-sandboxed.ts starts one
// per call). Plain JavaScript on purpose: a worker is a fresh Node isolate that must start the same way under tsx,
// vitest and production, without a TypeScript loader.
//
// The user's code sees nothing of the host: a new QuickJS runtime and context hold only the language's own
// intrinsics (no console, no process, no require, no timers, no network, no file system). Input goes in as a
// JSON string and the result comes out as one, so no host object ever crosses the boundary.
//
// Teardown matters: QuickJS asserts, when its runtime is freed, that no object is still referenced. A handle left
// undisposed (a rejected promise's reason, say) or a job still queued by the user's code makes that assertion abort
// the WASM module, and its crash text would replace the real answer. So every handle is owned by one list and
// disposed first, then the queued jobs are drained under an interrupt that always fires, then the context and last
// the runtime are freed.
import { parentPort, workerData } from "node:worker_threads";
import { getQuickJS } from "quickjs-emscripten";

const { code, input, limits, mode } = workerData;

// Script mode (the official quickjs and code_runner tools): a console whose lines are collected inside QuickJS
// (plain JavaScript defined in the sandbox, not a host object), then the code; the result is
// {result: <completion value>, console: [lines]}.
const SCRIPT_PRELUDE = `var __moonportLog = [];
var console = (function () {
  function line(args) {
    var parts = [];
    for (var i = 0; i < args.length; i++) {
      var a = args[i];
      parts.push(typeof a === "string" ? a : (function () { try { return JSON.stringify(a); } catch (e) { return String(a); } })());
    }
    if (__moonportLog.length < 1000) __moonportLog.push(parts.join(" "));
  }
  return { log: function () { line(arguments); }, info: function () { line(arguments); },
    warn: function () { line(arguments); }, error: function () { line(arguments); } };
})();`;

const CALL_HANDLER = `(function () {
  if (typeof handler !== "function") throw new TypeError("the code must define a function named handler(args)");
  var args = JSON.parse(__moonportInput);
  return handler(args);
})()`;

/** Jobs drained at teardown at most; each ends at once under the always-firing interrupt, so this only bounds a
 * chain of jobs that each queue the next. */
const MAX_TEARDOWN_JOBS = 10_000;

function describe(error) {
  if (error && typeof error === "object") {
    const name = typeof error.name === "string" ? error.name : "Error";
    const message = typeof error.message === "string" ? error.message : String(error);
    return { name, message };
  }
  return { name: "Error", message: String(error) };
}

/** QuickJS's own words for a limit, turned into the reason the caller classifies. */
function classify(err) {
  const text = `${err.name}: ${err.message}`;
  // The WASM module itself aborted: its text names QuickJS internals, never the user's code.
  if (/^RuntimeError: Aborted\(/.test(text)) return { kind: "crashed", ...err };
  if (/interrupted/i.test(text)) return { kind: "timeout", ...err };
  if (/out of memory/i.test(text)) return { kind: "memory", ...err };
  if (/stack overflow|too much recursion|Maximum call stack/i.test(text)) return { kind: "stack", ...err };
  return { kind: "error", ...err };
}

/** One sandbox: a runtime, its context, and every handle taken from it, freed together in the right order. */
class Sandbox {
  constructor(QuickJS) {
    this.deadline = Date.now() + limits.wallMs;
    this.stopping = false;
    this.handles = [];
    this.runtime = QuickJS.newRuntime();
    this.runtime.setMemoryLimit(limits.memoryBytes);
    this.runtime.setMaxStackSize(limits.stackBytes);
    this.runtime.setInterruptHandler(() => this.stopping || Date.now() > this.deadline);
    this.vm = this.runtime.newContext();
  }

  /** Takes ownership of a handle: it is disposed at teardown unless disposed earlier. */
  own(handle) {
    this.handles.push(handle);
    return handle;
  }

  /** Evaluates code; the value handle is owned, an error becomes a classified failure. */
  eval(source, filename) {
    const result = this.vm.evalCode(source, filename);
    if (result.error) return { failure: this.failure(result.error) };
    return { value: this.own(result.value) };
  }

  failure(errorHandle) {
    this.own(errorHandle);
    return { ok: false, ...classify(describe(this.vm.dump(errorHandle))) };
  }

  /** Runs queued jobs until none is left or one fails (the wall-time interrupt is one way to fail). */
  runJobs() {
    while (this.runtime.hasPendingJob()) {
      const jobs = this.runtime.executePendingJobs();
      if (jobs.error) return this.failure(jobs.error);
    }
    return undefined;
  }

  teardown() {
    for (const handle of this.handles) if (handle.alive) handle.dispose();
    this.handles = [];
    // Jobs the answer did not need still reference objects; run each into the interrupt and discard its error.
    this.stopping = true;
    for (let i = 0; i < MAX_TEARDOWN_JOBS && this.runtime.hasPendingJob(); i++) {
      const jobs = this.runtime.executePendingJobs(1);
      if (jobs.error) jobs.error.dispose();
    }
    this.vm.dispose();
    this.runtime.dispose();
  }
}

function runHandler(box) {
  const defined = box.eval(code, "tool.js");
  if (defined.failure) return defined.failure;
  const inputHandle = box.own(box.vm.newString(input));
  box.vm.setProp(box.vm.global, "__moonportInput", inputHandle);
  const call = box.eval(CALL_HANDLER, "call.js");
  if (call.failure) return call.failure;
  let result = call.value;
  // An async handler returns a promise: run the job queue (still under the deadline and limits) and unwrap it.
  // Nothing in the sandbox can settle a promise once the queue is empty (there are no timers or I/O), so a promise
  // still pending then never settles and the call ends at once instead of holding a sandbox to the deadline.
  let state = box.vm.getPromiseState(result);
  if (!state.notAPromise) {
    if (state.type === "pending") {
      const stopped = box.runJobs();
      if (stopped) return stopped;
      state = box.vm.getPromiseState(result);
    }
    if (state.type === "pending") {
      return { ok: false, kind: "never_settled", name: "Error", message: "the returned promise never settled" };
    }
    if (state.type === "rejected") return box.failure(state.error);
    result = box.own(state.value);
  }
  box.vm.setProp(box.vm.global, "__moonportResult", result);
  const text = box.eval("JSON.stringify(__moonportResult === undefined ? null : __moonportResult)", "out.js");
  if (text.failure) return text.failure;
  return { ok: true, output: box.vm.getString(text.value) };
}

function runScript(box) {
  const prelude = box.eval(SCRIPT_PRELUDE, "prelude.js");
  if (prelude.failure) return { ok: false, kind: "error", name: "Error", message: "the sandbox could not start" };
  const ran = box.eval(code, "script.js");
  if (ran.failure) return ran.failure;
  box.vm.setProp(box.vm.global, "__moonportResult", ran.value);
  // Promise callbacks may still log; a failing or interrupted job ends the script like a thrown error.
  const stopped = box.runJobs();
  if (stopped) return stopped;
  const text = box.eval(
    `JSON.stringify({ result: __moonportResult === undefined ? null : __moonportResult, console: __moonportLog })`,
    "out.js",
  );
  if (text.failure) return text.failure;
  return { ok: true, output: box.vm.getString(text.value) };
}

async function run() {
  const box = new Sandbox(await getQuickJS());
  let answer;
  try {
    answer = mode === "script" ? runScript(box) : runHandler(box);
  } catch (error) {
    answer = { ok: false, ...classify(describe(error)) };
  }
  box.teardown();
  return answer;
}

run().then(
  (result) => parentPort.postMessage(result),
  (error) => parentPort.postMessage({ ok: false, ...classify(describe(error)) }),
);
