import { type McpServer, mcpAuthIssues, type UpdateMcpServerRequest } from "@moonport/contracts";
import { schema } from "@moonport/db";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertWritable } from "./function-tool-row.ts";
import { findOwnServer, ownServer, toMcpServer } from "./mcp-server-row.ts";

/**
 * Changes an MCP server. A secret left out keeps the stored one; the §5 auth rule is checked on the result. A
 * change of where or how to connect resets the status to `disconnected` (the old tool list no longer vouches for it).
 */
export async function updateMcpServer(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  serverId: string;
  changes: UpdateMcpServerRequest;
}): Promise<McpServer> {
  assertWritable(opts.project);
  const cur = await findOwnServer(opts.ctx, opts.access, opts.project, opts.serverId);
  const c = opts.changes;
  const authType = c.authType ?? (cur.authType as NonNullable<UpdateMcpServerRequest["authType"]>);
  const sameAuth = authType === cur.authType;
  const issues = mcpAuthIssues(
    {
      authType,
      token: c.token,
      username: c.username ?? cur.username ?? undefined,
      password: c.password,
      headerName: c.headerName ?? cur.headerName ?? undefined,
    },
    { tokenSet: sameAuth && cur.tokenSealed !== null, passwordSet: sameAuth && cur.passwordSealed !== null },
  );
  if (issues.length) throw new AppError("validation_failed", { details: issues });
  const box = opts.ctx.toolSecrets;
  const usesToken = authType === "bearer" || authType === "api_key";
  const tokenSealed = !usesToken ? null : c.token ? box.seal(c.token) : sameAuth ? cur.tokenSealed : null;
  const passwordSealed =
    authType !== "basic" ? null : c.password ? box.seal(c.password) : sameAuth ? cur.passwordSealed : null;
  const connectionChanged =
    (c.url !== undefined && c.url !== cur.url) ||
    (c.transport !== undefined && c.transport !== cur.transport) ||
    !sameAuth ||
    c.token !== undefined ||
    c.password !== undefined ||
    (c.username !== undefined && c.username !== cur.username) ||
    (c.headerName !== undefined && c.headerName !== cur.headerName);
  const [row] = await opts.ctx.db
    .update(schema.mcpServers)
    .set({
      ...(c.name !== undefined ? { name: c.name } : {}),
      ...(c.description !== undefined ? { description: c.description } : {}),
      ...(c.url !== undefined ? { url: c.url } : {}),
      ...(c.transport !== undefined ? { transport: c.transport } : {}),
      ...(c.timeoutMs !== undefined ? { timeoutMs: c.timeoutMs } : {}),
      ...(c.enabled !== undefined ? { enabled: c.enabled } : {}),
      authType,
      username: authType === "basic" ? (c.username ?? cur.username) : null,
      headerName: authType === "api_key" ? (c.headerName ?? cur.headerName) : null,
      tokenSealed,
      passwordSealed,
      ...(connectionChanged ? { status: "disconnected", lastError: null } : {}),
      updatedAt: opts.ctx.clock.now(),
    })
    .where(ownServer(opts.access, opts.project, opts.serverId))
    .returning();
  return toMcpServer(row!);
}
