/** `/v1/caching/refs/tags` (docs/api-compat.md §7.1): names for caches, used by `role: "cache"` messages (`tag=`). */
import { CONTEXT_CACHE_LIMITS as L } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, asc, desc, eq, gt, lt, type SQL } from "drizzle-orm";
import { GatewayError, gatewayErrors } from "../../chat/errors.ts";
import type { AppContext } from "../../context.ts";
import type { KeyIdentity } from "../../metering/pipeline.ts";
import { getCache } from "./manage-caches.ts";

const tags = schema.contextCacheTags;

const tagNotFound = (tag: string) =>
  new GatewayError(404, "resource_not_found_error", `Not found the tag ${tag.slice(0, 64)} or Permission denied`);

export function checkTagName(tag: unknown): string {
  if (typeof tag !== "string" || !L.tagPattern.test(tag)) {
    throw gatewayErrors.invalidRequest("tag must be 1-128 characters: a letter, then letters, digits, '_', '-' or '.'");
  }
  return tag;
}

export async function createTag(ctx: AppContext, key: KeyIdentity, body: unknown) {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const tag = checkTagName(b.tag);
  if (typeof b.cache_id !== "string") throw gatewayErrors.invalidRequest("cache_id must be a string");
  const cache = await getCache(ctx, key.orgId, b.cache_id);
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(tags)
    .values({ orgId: key.orgId, tag, cacheId: cache.id, createdBy: key.keyId, createdAt: now })
    .onConflictDoUpdate({
      target: [tags.orgId, tags.tag],
      set: { cacheId: cache.id, createdBy: key.keyId, createdAt: now },
    })
    .returning();
  return row!;
}

export async function getTag(ctx: AppContext, orgId: string, tag: string) {
  const [row] = await ctx.db
    .select()
    .from(tags)
    .where(and(eq(tags.orgId, orgId), eq(tags.tag, tag)));
  if (!row) throw tagNotFound(tag);
  return row;
}

/** Cursor paging by tag name (exclusive `after`/`before`). */
export async function listTags(
  ctx: AppContext,
  orgId: string,
  q: { limit?: string; order?: string; after?: string; before?: string },
) {
  const limit = q.limit === undefined ? 20 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw gatewayErrors.invalidRequest("limit must be an integer from 1 to 100");
  }
  const order = q.order ?? "desc";
  if (order !== "asc" && order !== "desc") throw gatewayErrors.invalidRequest("order must be asc or desc");
  const where: (SQL | undefined)[] = [eq(tags.orgId, orgId)];
  if (q.after) where.push(order === "desc" ? lt(tags.tag, q.after) : gt(tags.tag, q.after));
  if (q.before) where.push(order === "desc" ? gt(tags.tag, q.before) : lt(tags.tag, q.before));
  return ctx.db
    .select()
    .from(tags)
    .where(and(...where))
    .orderBy(order === "desc" ? desc(tags.tag) : asc(tags.tag))
    .limit(limit);
}

/** Always succeeds (docs/api-compat.md §7.1), whether or not the tag existed. */
export async function deleteTag(ctx: AppContext, orgId: string, tag: string) {
  await ctx.db.delete(tags).where(and(eq(tags.orgId, orgId), eq(tags.tag, tag)));
  return { deleted: true, object: "cache_object.tag.deleted", tag };
}
