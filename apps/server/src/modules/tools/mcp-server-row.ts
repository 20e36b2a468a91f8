import type { McpServer, McpStatus, McpToolInfo } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import type { McpEndpoint } from "../../tools/mcp-client.ts";

export type McpServerRow = typeof schema.mcpServers.$inferSelect;

/** The browser's view: everything but the secrets, of which only their presence is told. */
export function toMcpServer(r: McpServerRow): McpServer {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    url: r.url,
    transport: r.transport as McpServer["transport"],
    authType: r.authType as McpServer["authType"],
    username: r.username,
    headerName: r.headerName,
    tokenSet: r.tokenSealed !== null,
    passwordSet: r.passwordSealed !== null,
    timeoutMs: r.timeoutMs,
    enabled: r.enabled,
    status: r.status as McpStatus,
    lastError: r.lastError,
    lastConnectedAt: r.lastConnectedAt?.toISOString() ?? null,
    tools: r.tools as McpToolInfo[],
    toolsSyncedAt: r.toolsSyncedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export function ownServer(access: OrgAccess, project: ProjectAccess, serverId: string) {
  const t = schema.mcpServers;
  return and(eq(t.id, serverId), eq(t.userId, access.userId), eq(t.projectId, project.project.id));
}

export async function findOwnServer(ctx: AppContext, access: OrgAccess, project: ProjectAccess, serverId: string) {
  const [row] = await ctx.db
    .select()
    .from(schema.mcpServers)
    .where(ownServer(access, project, serverId));
  if (!row) throw new AppError("not_found");
  return row;
}

/** Where and how to connect: the credentials opened only here, for the request being made. */
export function endpointOf(ctx: AppContext, r: McpServerRow): McpEndpoint {
  const token = r.tokenSealed ? ctx.toolSecrets.open(r.tokenSealed) : "";
  const headers: Record<string, string> = {};
  if (r.authType === "bearer") headers.authorization = `Bearer ${token}`;
  if (r.authType === "basic") {
    const password = r.passwordSealed ? ctx.toolSecrets.open(r.passwordSealed) : "";
    headers.authorization = `Basic ${Buffer.from(`${r.username ?? ""}:${password}`).toString("base64")}`;
  }
  if (r.authType === "api_key" && r.headerName) headers[r.headerName.toLowerCase()] = token;
  return { url: r.url, transport: r.transport as McpEndpoint["transport"], headers, timeoutMs: r.timeoutMs };
}
