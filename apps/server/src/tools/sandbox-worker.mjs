// The QuickJS sandbox of custom function tools, run in its own worker thread (tools/run-sandboxed.ts starts one
// per call). Plain JavaScript on purpose: a worker is a fresh Node isolate that must start the same way under tsx,
// vitest and production, without a TypeScript loader.
//
// The user's code sees nothing of the host: a new QuickJS runtime and context hold only the language's own
// intrinsics (no console, no process, no require, no timers, no network, no file system). Input goes in as a
// JSON string and the result comes out as one, so no host object ever crosses the boundary.
import { parentPort, workerData } from "node:worker_threads";
import { getQuickJS, shouldInterruptAfterDeadline } from "quickjs-emscripten";

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
  if (/interrupted/i.test(text)) return { kind: "timeout", ...err };
  if (/out of memory/i.test(text)) return { kind: "memory", ...err };
  if (/stack overflow|too much recursion|Maximum call stack/i.test(text)) return { kind: "stack", ...err };
  return { kind: "error", ...err };
}

async function run() {
  const QuickJS = await getQuickJS();
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.wallMs));
  const vm = runtime.newContext();
  try {
    if (mode === "script") return runScript(runtime, vm);
    const defined = vm.evalCode(code, "tool.js");
    if (defined.error) {
      const err = classify(describe(vm.dump(defined.error)));
      defined.error.dispose();
      return { ok: false, ...err };
    }
    defined.value.dispose();
    const inputHandle = vm.newString(input);
    vm.setProp(vm.global, "__moonportInput", inputHandle);
    inputHandle.dispose();
    const call = vm.evalCode(
      `(function () {
        if (typeof handler !== "function") throw new TypeError("the code must define a function named handler(args)");
        var args = JSON.parse(__moonportInput);
        return handler(args);
      })()`,
      "call.js",
    );
    if (call.error) {
      const err = classify(describe(vm.dump(call.error)));
      call.error.dispose();
      return { ok: false, ...err };
    }
    let resultHandle = call.value;
    // An async handler returns a promise: run the job queue (still under the deadline and limits) and unwrap it.
    const state = vm.getPromiseState(resultHandle);
    if (state.type !== "fulfilled" || state.notAPromise !== true) {
      if (state.type === "pending") {
        const jobs = runtime.executePendingJobs();
        if (jobs.error) {
          const err = classify(describe(vm.dump(jobs.error)));
          jobs.error.dispose();
          resultHandle.dispose();
          return { ok: false, ...err };
        }
      }
      const settled = vm.getPromiseState(resultHandle);
      if (settled.type === "pending") {
        resultHandle.dispose();
        return { ok: false, kind: "error", name: "Error", message: "the returned promise never settled" };
      }
      if (settled.type === "rejected") {
        const err = classify(describe(vm.dump(settled.error)));
        settled.error.dispose();
        resultHandle.dispose();
        return { ok: false, ...err };
      }
      if (settled.notAPromise !== true) {
        resultHandle.dispose();
        resultHandle = settled.value;
      }
    }
    vm.setProp(vm.global, "__moonportResult", resultHandle);
    resultHandle.dispose();
    const text = vm.evalCode("JSON.stringify(__moonportResult === undefined ? null : __moonportResult)", "out.js");
    if (text.error) {
      const err = classify(describe(vm.dump(text.error)));
      text.error.dispose();
      return { ok: false, ...err };
    }
    const output = vm.getString(text.value);
    text.value.dispose();
    return { ok: true, output };
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

function runScript(runtime, vm) {
  const prelude = vm.evalCode(SCRIPT_PRELUDE, "prelude.js");
  if (prelude.error) {
    prelude.error.dispose();
    return { ok: false, kind: "error", name: "Error", message: "the sandbox could not start" };
  }
  prelude.value.dispose();
  const ran = vm.evalCode(code, "script.js");
  if (ran.error) {
    const err = classify(describe(vm.dump(ran.error)));
    ran.error.dispose();
    return { ok: false, ...err };
  }
  vm.setProp(vm.global, "__moonportResult", ran.value);
  ran.value.dispose();
  runtime.executePendingJobs();
  const text = vm.evalCode(
    `JSON.stringify({ result: __moonportResult === undefined ? null : __moonportResult, console: __moonportLog })`,
    "out.js",
  );
  if (text.error) {
    const err = classify(describe(vm.dump(text.error)));
    text.error.dispose();
    return { ok: false, ...err };
  }
  const output = vm.getString(text.value);
  text.value.dispose();
  return { ok: true, output };
}

run().then(
  (result) => parentPort.postMessage(result),
  (error) => parentPort.postMessage({ ok: false, ...classify(describe(error)) }),
);
