/** The wire shapes of docs/api-compat.md §7.1: the cache object and the tag object. */
import type { schema } from "@moonport/db";

type CacheRow = typeof schema.contextCaches.$inferSelect;
type TagRow = typeof schema.contextCacheTags.$inferSelect;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export function toCacheObject(row: CacheRow) {
  return {
    id: row.id,
    object: "context-cache",
    status: row.status,
    created_at: seconds(row.createdAt),
    expired_at: seconds(row.expiredAt),
    tokens: row.tokens,
    model: row.model,
    messages: row.messages,
    tools: row.tools,
    name: row.name,
    description: row.description,
    metadata: row.metadata,
    ...(row.error ? { error: row.error } : {}),
  };
}

export function toTagObject(row: TagRow) {
  return {
    tag: row.tag,
    cache_id: row.cacheId,
    created_at: seconds(row.createdAt),
    object: "cache_object.tag",
    owned_by: row.orgId,
  };
}
