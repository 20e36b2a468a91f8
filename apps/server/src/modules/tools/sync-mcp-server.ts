import type { McpServer } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { listMcpTools, type McpFailure } from "../../tools/mcp-client.ts";
import { assertWritable } from "./function-tool-row.ts";
import { endpointOf, findOwnServer, toMcpServer } from "./mcp-server-row.ts";

const SYNC_ERROR = {
  unauthorized: "mcp_sync_unauthorized",
  server_error: "mcp_sync_server_error",
  network_error: "mcp_sync_network_error",
} as const;

/**
 * Connects to the server and reads its tool list: status `connecting` while it runs, then `connected` with the
 * tools and the time, or `error` with the reason (kept on the row and answered as the §8 message: unauthorized,
 * server error, network error). A failed sync keeps the last good tool list.
 */
export async function syncMcpServer(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  serverId: string;
}): Promise<McpServer> {
  assertWritable(opts.project);
  const { ctx } = opts;
  const row = await findOwnServer(ctx, opts.access, opts.project, opts.serverId);
  const t = schema.mcpServers;
  await ctx.db.update(t).set({ status: "connecting" }).where(eq(t.id, row.id));
  try {
    const tools = await listMcpTools(endpointOf(ctx, row), ctx.outbound);
    const now = ctx.clock.now();
    const [done] = await ctx.db
      .update(t)
      .set({ status: "connected", lastError: null, lastConnectedAt: now, tools, toolsSyncedAt: now })
      .where(eq(t.id, row.id))
      .returning();
    return toMcpServer(done!);
  } catch (e) {
    const failure = e as McpFailure;
    const code = SYNC_ERROR[failure.kind] ?? "mcp_sync_network_error";
    await ctx.db
      .update(t)
      .set({ status: "error", lastError: `${code}: ${failure.detail ?? String(e)}` })
      .where(eq(t.id, row.id));
    throw new AppError(code, { params: { reason: failure.detail ?? "" } });
  }
}
