/**
 * Get, list, update and delete of `/v1/caching` (docs/api-compat.md §7.1); every read is scoped to the key's
 * organization.
 */
import { schema } from "@moonport/db";
import { and, asc, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { GatewayError, gatewayErrors } from "../../chat/errors.ts";
import type { AppContext } from "../../context.ts";
import { expiryFrom, optionalMetadata } from "./cache-fields.ts";
import { billStorage, PREPARE_JOB } from "./cache-jobs.ts";

const cc = schema.contextCaches;

const cacheNotFound = (id: string) =>
  new GatewayError(
    404,
    "resource_not_found_error",
    `Not found the context cache ${id.slice(0, 64)} or Permission denied`,
  );

export async function getCache(ctx: AppContext, orgId: string, id: string) {
  const [row] = await ctx.db
    .select()
    .from(cc)
    .where(and(eq(cc.id, id), eq(cc.orgId, orgId), isNull(cc.deletedAt)));
  if (!row) throw cacheNotFound(id);
  return row;
}

/** Cursor paging as docs/api-compat.md §7.1: `after`/`before` are cache ids (exclusive), order by created_at. */
export async function listCaches(
  ctx: AppContext,
  orgId: string,
  q: { limit?: string; order?: string; after?: string; before?: string; metadata?: Record<string, string> },
) {
  const limit = q.limit === undefined ? 20 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw gatewayErrors.invalidRequest("limit must be an integer from 1 to 100");
  }
  const order = q.order ?? "desc";
  if (order !== "asc" && order !== "desc") throw gatewayErrors.invalidRequest("order must be asc or desc");
  const where: (SQL | undefined)[] = [eq(cc.orgId, orgId), isNull(cc.deletedAt)];
  const position = async (id: string) => {
    const [r] = await ctx.db
      .select({ createdAt: cc.createdAt, id: cc.id })
      .from(cc)
      .where(and(eq(cc.id, id), eq(cc.orgId, orgId)));
    if (!r) throw cacheNotFound(id);
    return sql`(${r.createdAt.toISOString()}::timestamptz, ${r.id})`;
  };
  // `after` continues in the listing's order; `before` goes back towards its start.
  if (q.after) {
    const p = await position(q.after);
    where.push(order === "desc" ? sql`(${cc.createdAt}, ${cc.id}) < ${p}` : sql`(${cc.createdAt}, ${cc.id}) > ${p}`);
  }
  if (q.before) {
    const p = await position(q.before);
    where.push(order === "desc" ? sql`(${cc.createdAt}, ${cc.id}) > ${p}` : sql`(${cc.createdAt}, ${cc.id}) < ${p}`);
  }
  for (const [k, v] of Object.entries(q.metadata ?? {})) where.push(sql`${cc.metadata}->>${k} = ${v}`);
  const dir = order === "desc" ? desc : asc;
  return ctx.db
    .select()
    .from(cc)
    .where(and(...where))
    .orderBy(dir(cc.createdAt), dir(cc.id))
    .limit(limit);
}

/**
 * `PUT /v1/caching/{id}`: new metadata and/or expiry. The cache goes back to pending (docs/api-compat.md §7.1); the
 * minutes of its ready period that have started are billed first.
 */
export async function updateCache(ctx: AppContext, orgId: string, id: string, body: unknown) {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw gatewayErrors.invalidRequest("the request body must be a JSON object");
  }
  const b = body as Record<string, unknown>;
  const now = ctx.clock.now();
  const metadata = optionalMetadata(b);
  const expiredAt = expiryFrom(b, now, false);
  if (!metadata && !expiredAt) throw gatewayErrors.invalidRequest("send metadata, expired_at or ttl to update");
  const row = await getCache(ctx, orgId, id);
  await billStorage(ctx, row, now);
  return reopenCache(ctx, row, { ...(metadata ? { metadata } : {}), ...(expiredAt ? { expiredAt } : {}) });
}

/** Sends a cache back to pending with `changes` and queues its preparation. */
export async function reopenCache(
  ctx: AppContext,
  row: typeof cc.$inferSelect,
  changes: { metadata?: Record<string, string>; expiredAt?: Date },
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(cc)
      .set({ ...changes, status: "pending", readyAt: null, storageMinutesBilled: 0, error: null, updatedAt: now })
      .where(eq(cc.id, row.id))
      .returning();
    await ctx.jobs.enqueue(
      { name: PREPARE_JOB, payload: { cacheId: row.id }, key: `${PREPARE_JOB}:${row.id}` },
      { tx },
    );
    return updated!;
  });
}

/** `DELETE /v1/caching/{id}`: bills the started minutes, then removes it from the API (its bills stay). */
export async function deleteCache(ctx: AppContext, orgId: string, id: string) {
  const row = await getCache(ctx, orgId, id);
  const now = ctx.clock.now();
  await billStorage(ctx, row, now);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(schema.contextCacheTags).where(eq(schema.contextCacheTags.cacheId, id));
    await tx.update(cc).set({ status: "inactive", deletedAt: now, updatedAt: now }).where(eq(cc.id, id));
  });
  return { deleted: true, id, object: "context_cache_object.deleted" };
}
