import { PLAYGROUND_KEY_PREFIX, type PlaygroundToolCallRequest, type ToolRunResult } from "@moonport/contracts";
import { newId } from "@moonport/db";
import { GatewayError } from "../../chat/errors.ts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { callMcpTool, McpFailure } from "../../tools/mcp-client.ts";
import { assertWritable, findOwnTool } from "./function-tool-row.ts";
import { endpointOf, findOwnServer } from "./mcp-server-row.ts";
import { findFormula } from "./official/catalog.ts";
import { runOfficialTool } from "./run-official-tool.ts";
import { runFunctionToolCode } from "./test-run-function-tool.ts";

function parseArgs(text: string): Record<string, unknown> | string {
  try {
    const v: unknown = text.trim() === "" ? {} : JSON.parse(text);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    return "the arguments must be a JSON object";
  } catch {
    return "the arguments are not valid JSON";
  }
}

const failed = (output: string, started: number): ToolRunResult => ({
  state: "failed",
  output: `Error: ${output}`,
  durationMs: Math.round(performance.now() - started),
});

/**
 * Runs one tool call of a playground conversation for the caller. Whatever the tool does, the answer is a result
 * (success or failed with the reason) that goes back to the model; only a tool the caller may not use (another
 * user's, an unknown one) or an empty balance for web-search is an error.
 */
export async function runPlaygroundToolCall(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  call: PlaygroundToolCallRequest;
}): Promise<ToolRunResult> {
  assertWritable(opts.project);
  const { ctx, access, project, call } = opts;
  const started = performance.now();
  if (call.kind === "official") {
    const formula = findFormula(call.target);
    if (!formula) throw new AppError("not_found");
    try {
      const r = await runOfficialTool({
        ctx,
        formula,
        name: call.name,
        argumentsJson: call.arguments,
        caller: {
          orgId: access.org.id,
          projectId: project.project.id,
          apiKeyId: `${PLAYGROUND_KEY_PREFIX}${access.userId}`,
          currency: access.org.currency,
        },
        requestId: newId("req"),
      });
      const durationMs = Math.round(performance.now() - started);
      return r.status === "succeeded"
        ? { state: "success", output: r.output, durationMs }
        : { state: "failed", output: `Error: ${r.error}`, durationMs };
    } catch (e) {
      if (e instanceof GatewayError && e.status === 429) throw new AppError("playground_insufficient_balance");
      throw e;
    }
  }
  const args = parseArgs(call.arguments);
  if (call.kind === "function") {
    const tool = await findOwnTool(ctx, access, project, call.target);
    if (typeof args === "string") return failed(args, started);
    return runFunctionToolCode(ctx, { orgId: access.org.id, userId: access.userId }, tool.code, JSON.stringify(args));
  }
  const server = await findOwnServer(ctx, access, project, call.target);
  if (!server.enabled) return failed(`the MCP server "${server.name}" is disabled`, started);
  if (typeof args === "string") return failed(args, started);
  try {
    const r = await callMcpTool(endpointOf(ctx, server), ctx.outbound, call.name, args);
    const durationMs = Math.round(performance.now() - started);
    return { state: r.isError ? "failed" : "success", output: r.output, durationMs };
  } catch (e) {
    if (e instanceof McpFailure) return failed(`${e.kind.replace("_", " ")}: ${e.detail}`, started);
    throw e;
  }
}
