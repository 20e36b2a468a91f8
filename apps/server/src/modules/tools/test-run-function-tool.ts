import { type TestRunFunctionToolRequest, type ToolRunResult, vmsg } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { limiterFor } from "../../lib/limiter.ts";
import { DEFAULT_SANDBOX_LIMITS, runSandboxed } from "../../tools/run-sandboxed.ts";
import type { SandboxOwner } from "../../tools/sandbox-scheduler.ts";
import { assertWritable, checkFunctionToolDefinition } from "./function-tool-row.ts";

/**
 * Runs a tool as it stands in the editor: the definition must pass the save rules, then the code runs in the
 * QuickJS sandbox with the given input (else the example). A failing run is an answer (state "failed" with the
 * reason), not an error: it is exactly what the model would see as the tool's result. Test runs cost the server
 * a worker each and nothing else bounds them, so each user has a per-minute budget of them.
 */
export async function testRunFunctionTool(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  draft: TestRunFunctionToolRequest;
}): Promise<ToolRunResult> {
  const { ctx, access } = opts;
  assertWritable(opts.project);
  // Counted before the definition check too: that check runs a worker of its own.
  const limit = await limiterFor(
    ctx,
    "tools:testRunsPerUser",
    ctx.config.toolSandboxes.testRunsPerUserPerMinute,
    60,
  ).hit(access.userId);
  if (!limit.allowed) {
    throw new AppError("tool_test_runs_rate_limited", {
      params: { seconds: limit.retryAfterSeconds },
      headers: { "retry-after": String(limit.retryAfterSeconds) },
    });
  }
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
  return runFunctionToolCode(ctx, { orgId: access.org.id, userId: access.userId }, opts.draft.code, input);
}

/**
 * One call of a function tool's code: the same path, and the same fair scheduler, for test runs and the
 * playground's tool loop. A call the scheduler refuses (its organization or user has too many running or waiting)
 * is a 429 for the person at the console, not a result for the model.
 */
export async function runFunctionToolCode(
  ctx: AppContext,
  owner: SandboxOwner,
  code: string,
  input: string,
): Promise<ToolRunResult> {
  const r = await runSandboxed({ ctx, owner, code, input });
  if (r.ok) return { state: "success", output: r.output, durationMs: r.durationMs };
  if (r.kind === "busy") {
    // A sandbox frees within one wall-time limit, so that is when trying again can succeed.
    const seconds = Math.ceil(DEFAULT_SANDBOX_LIMITS.wallMs / 1000);
    throw new AppError(`tool_runs_busy_${r.scope}`, { headers: { "retry-after": String(seconds) } });
  }
  return { state: "failed", output: `Error: ${r.reason}`, durationMs: r.durationMs };
}
