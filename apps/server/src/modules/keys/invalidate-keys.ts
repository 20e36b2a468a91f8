/**
 * The console's one call site for telling the gateway's key caches (every instance, through `ctx.keyEvents`) that
 * keys stopped working or changed: after a member's removal (their keys) and a project's archive (its keys).
 * Single-key changes go through the keys module's own functions (rename/enable/disable/delete), which do the same.
 * Call after the transaction that changed the rows has committed.
 */
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";

export async function invalidateKeys(
  ctx: Pick<AppContext, "db" | "keyEvents">,
  opts: { orgId: string } & ({ projectId: string; createdBy?: string } | { createdBy: string }),
): Promise<void> {
  if ("projectId" in opts && opts.createdBy === undefined) {
    await ctx.keyEvents.invalidate({ projectId: opts.projectId });
    return;
  }
  const where = [eq(schema.apiKeys.orgId, opts.orgId), eq(schema.apiKeys.createdBy, opts.createdBy!)];
  if ("projectId" in opts) where.push(eq(schema.apiKeys.projectId, opts.projectId));
  const rows = await ctx.db
    .select({ keyHash: schema.apiKeys.keyHash })
    .from(schema.apiKeys)
    .where(and(...where));
  for (const r of rows) await ctx.keyEvents.invalidate({ keyHash: r.keyHash });
}
