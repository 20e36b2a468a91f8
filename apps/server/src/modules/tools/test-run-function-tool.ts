import { type TestRunFunctionToolRequest, type ToolRunResult, vmsg } from "@moonport/contracts";
import type { ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { runSandboxed } from "../../tools/run-sandboxed.ts";
import { assertWritable, checkFunctionToolDefinition } from "./function-tool-row.ts";

/**
 * Runs a tool as it stands in the editor: the definition must pass the save rules, then the code runs in the
 * QuickJS sandbox with the given input (else the example). A failing run is an answer (state "failed" with the
 * reason), not an error: it is exactly what the model would see as the tool's result.
 */
export async function testRunFunctionTool(opts: {
  project: ProjectAccess;
  draft: TestRunFunctionToolRequest;
}): Promise<ToolRunResult> {
  assertWritable(opts.project);
  await checkFunctionToolDefinition(opts.draft);
  let input = opts.draft.exampleInput;
  if (opts.draft.input !== undefined && opts.draft.input.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(opts.draft.input);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    } catch {
      throw new AppError("validation_failed", { details: [{ path: "input", message: vmsg("json_object_required") }] });
    }
    input = opts.draft.input;
  }
  return runFunctionToolCode(opts.draft.code, input);
}

/** One call of a function tool's code: the same path for test runs and the playground's tool loop. */
export async function runFunctionToolCode(code: string, input: string): Promise<ToolRunResult> {
  const r = await runSandboxed({ code, input });
  return r.ok
    ? { state: "success", output: r.output, durationMs: r.durationMs }
    : { state: "failed", output: `Error: ${r.reason}`, durationMs: r.durationMs };
}
