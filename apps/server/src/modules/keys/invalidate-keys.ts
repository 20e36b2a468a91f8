/**
 * The one call site the console uses after any change that can stop a key from working (disable, delete,
 * rename does not matter but is harmless, member removal, project archive). The gateway's key cache subscribes
 * with `onKeysInvalidated`; until it does, listeners are empty and the database is the only truth the gateway reads.
 */
import { type Db, schema, type Tx } from "@moonport/db";
import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";

export interface KeyInvalidation {
  orgId: string;
  /** SHA-256 hashes of the affected keys (what a key cache is indexed by). */
  keyHashes: string[];
  keyIds: string[];
}

type Listener = (event: KeyInvalidation) => void | Promise<void>;
const listeners = new Set<Listener>();

/** Subscribes a key cache; returns the unsubscribe function. */
export function onKeysInvalidated(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Tells every subscribed cache that these keys changed. Call after the transaction that changed them commits.
 * Select by key ids, by project, or by creator within the organization.
 */
export async function invalidateKeys(
  ctx: Pick<AppContext, "db" | "log">,
  opts: { orgId: string; keyIds?: string[]; projectId?: string; createdBy?: string; db?: Db | Tx },
): Promise<KeyInvalidation> {
  const db = opts.db ?? ctx.db;
  const where = [eq(schema.apiKeys.orgId, opts.orgId)];
  if (opts.keyIds) where.push(inArray(schema.apiKeys.id, opts.keyIds.length ? opts.keyIds : ["-"]));
  if (opts.projectId) where.push(eq(schema.apiKeys.projectId, opts.projectId));
  if (opts.createdBy) where.push(eq(schema.apiKeys.createdBy, opts.createdBy));
  const rows = await db
    .select({ id: schema.apiKeys.id, hash: schema.apiKeys.keyHash })
    .from(schema.apiKeys)
    .where(and(...where));
  const event: KeyInvalidation = {
    orgId: opts.orgId,
    keyIds: rows.map((r) => r.id),
    keyHashes: rows.map((r) => r.hash),
  };
  if (event.keyIds.length === 0) return event;
  for (const l of listeners) {
    try {
      await l(event);
    } catch (err) {
      ctx.log.error({ err, orgId: opts.orgId }, "key cache invalidation listener failed");
    }
  }
  return event;
}
