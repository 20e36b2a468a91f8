/**
 * The console's one way of telling the gateway's key caches (every instance, through `ctx.keyEvents`) that keys
 * stopped working or changed. Called inside the transaction that changes the rows (opened by `withTransaction`):
 * it names the keys there and announces them after the commit, so a caller cannot forget it and a rolled-back
 * change is never announced. Used by the keys module's own writes and by a member's removal and a project's
 * archive.
 */
import { schema, type Tx } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AfterCommit } from "../../lib/transaction.ts";
import type { KeyEvents } from "../../metering/key-events.ts";

export async function invalidateKeysAfterCommit(
  scope: { tx: Tx; afterCommit: AfterCommit; keyEvents: KeyEvents },
  opts: { keyHash: string } | ({ orgId: string } & ({ projectId: string; createdBy?: string } | { createdBy: string })),
): Promise<void> {
  const { keyEvents } = scope;
  if ("keyHash" in opts) {
    scope.afterCommit(() => keyEvents.invalidate({ keyHash: opts.keyHash }));
    return;
  }
  if ("projectId" in opts && opts.createdBy === undefined) {
    const projectId = opts.projectId;
    scope.afterCommit(() => keyEvents.invalidate({ projectId }));
    return;
  }
  const where = [eq(schema.apiKeys.orgId, opts.orgId), eq(schema.apiKeys.createdBy, opts.createdBy!)];
  if ("projectId" in opts) where.push(eq(schema.apiKeys.projectId, opts.projectId));
  const rows = await scope.tx
    .select({ keyHash: schema.apiKeys.keyHash })
    .from(schema.apiKeys)
    .where(and(...where));
  scope.afterCommit(async () => {
    for (const r of rows) await keyEvents.invalidate({ keyHash: r.keyHash });
  });
}
