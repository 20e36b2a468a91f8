import type { McpServerList } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { toMcpServer } from "./mcp-server-row.ts";

/** The caller's MCP servers in the project, oldest first. */
export async function listMcpServers(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
}): Promise<McpServerList> {
  const t = schema.mcpServers;
  const rows = await opts.ctx.db
    .select()
    .from(t)
    .where(and(eq(t.userId, opts.access.userId), eq(t.projectId, opts.project.project.id)))
    .orderBy(asc(t.createdAt), asc(t.id));
  return { items: rows.map(toMcpServer) };
}
