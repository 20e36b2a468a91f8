import { type CreateMcpServerRequest, MCP_LIMITS, type McpServer } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, count, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertWritable } from "./function-tool-row.ts";
import { toMcpServer } from "./mcp-server-row.ts";

type Parsed = Required<Omit<CreateMcpServerRequest, "token" | "username" | "password" | "headerName">> &
  Pick<CreateMcpServerRequest, "token" | "username" | "password" | "headerName">;

/**
 * Saves an MCP server for the caller (status `disconnected` until its first sync). Only the fields its auth type
 * uses are kept; the token and password are sealed before they reach the database.
 */
export async function createMcpServer(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  server: Parsed;
}): Promise<McpServer> {
  assertWritable(opts.project);
  const t = schema.mcpServers;
  const [n] = await opts.ctx.db
    .select({ n: count() })
    .from(t)
    .where(and(eq(t.userId, opts.access.userId), eq(t.projectId, opts.project.project.id)));
  if ((n?.n ?? 0) >= MCP_LIMITS.perProject) {
    throw new AppError("limit_reached", { params: { reason: `${MCP_LIMITS.perProject} MCP servers` } });
  }
  const s = opts.server;
  const box = opts.ctx.toolSecrets;
  const usesToken = s.authType === "bearer" || s.authType === "api_key";
  const now = opts.ctx.clock.now();
  const [row] = await opts.ctx.db
    .insert(t)
    .values({
      id: newId("mcp"),
      userId: opts.access.userId,
      orgId: opts.access.org.id,
      projectId: opts.project.project.id,
      name: s.name,
      description: s.description,
      url: s.url,
      transport: s.transport,
      authType: s.authType,
      username: s.authType === "basic" ? (s.username ?? null) : null,
      headerName: s.authType === "api_key" ? (s.headerName ?? null) : null,
      tokenSealed: usesToken && s.token ? box.seal(s.token) : null,
      passwordSealed: s.authType === "basic" && s.password ? box.seal(s.password) : null,
      timeoutMs: s.timeoutMs,
      enabled: s.enabled,
      status: "disconnected",
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toMcpServer(row!);
}
