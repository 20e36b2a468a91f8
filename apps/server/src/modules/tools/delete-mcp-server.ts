import { schema } from "@moonport/db";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertWritable } from "./function-tool-row.ts";
import { ownServer } from "./mcp-server-row.ts";

/** Deletes one of the caller's MCP servers (its sealed credentials with it). */
export async function deleteMcpServer(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  serverId: string;
}): Promise<{ ok: true }> {
  assertWritable(opts.project);
  const rows = await opts.ctx.db
    .delete(schema.mcpServers)
    .where(ownServer(opts.access, opts.project, opts.serverId))
    .returning({ id: schema.mcpServers.id });
  if (!rows.length) throw new AppError("not_found");
  return { ok: true };
}
