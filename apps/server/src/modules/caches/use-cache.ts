/**
 * A chat request's use of an explicit context cache (docs/api-compat.md §7.1), resolved before the chat core runs:
 *  - headers: `X-Msh-Context-Cache: <id>` (+ `-DryRun: 1`, `-Reset-TTL: <s>`): the request repeats the cached
 *    messages as its first ones and the same tools; the cache is used when their hash equals the cache's;
 *  - a first message `{role: "cache", content: "cache_id=<id>|tag=<tag>[;reset_ttl=<s>][;dry_run=1]"}`: it is
 *    replaced by the cached messages and tools (the request's `tools` must be absent or null).
 * A cache that is not ready, or does not match, is not used: the call goes on and is billed at normal prices.
 * Requests without either form cost one header lookup and one property read.
 */
import { CONTEXT_CACHE_LIMITS as L } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { gatewayErrors } from "../../chat/errors.ts";
import type { UsedContextCache } from "../../chat/meter.ts";
import type { AppContext } from "../../context.ts";
import type { KeyIdentity } from "../../metering/pipeline.ts";
import { contentHash } from "./cache-content.ts";
import { checkTagName, getTag } from "./cache-tags.ts";
import { getCache, reopenCache } from "./manage-caches.ts";

interface CacheUse {
  /** The body to run: unchanged for the header form, the cached messages spliced in for the message form. */
  body: unknown;
  cacheId: string;
  /** Set when the cache is used by this call. */
  used?: UsedContextCache & { expiredAt: Date };
  dryRun: boolean;
}

function resetSeconds(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0 || n > L.maxTtlSeconds) {
    throw gatewayErrors.invalidRequest(`reset_ttl must be an integer from 1 to ${L.maxTtlSeconds} (seconds)`);
  }
  return n;
}

function parseCacheMessage(content: unknown): { cacheId?: string; tag?: string; resetTtl?: number; dryRun: boolean } {
  if (typeof content !== "string" || !content) {
    throw gatewayErrors.invalidRequest("a cache message's content must be cache_id=<id> or tag=<tag>");
  }
  const fields = new Map<string, string>();
  for (const part of content.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) throw gatewayErrors.invalidRequest(`cache message: '${part.slice(0, 64)}' is not a key=value pair`);
    const k = part.slice(0, eq).trim();
    if (!["cache_id", "tag", "reset_ttl", "dry_run"].includes(k)) {
      throw gatewayErrors.invalidRequest(`cache message: unknown field '${k.slice(0, 64)}'`);
    }
    fields.set(k, part.slice(eq + 1).trim());
  }
  const cacheId = fields.get("cache_id");
  const tag = fields.get("tag");
  if (!cacheId === !tag) throw gatewayErrors.invalidRequest("a cache message names either cache_id or tag");
  const dry = fields.get("dry_run");
  if (dry !== undefined && dry !== "0" && dry !== "1") throw gatewayErrors.invalidRequest("dry_run must be 0 or 1");
  return {
    ...(cacheId ? { cacheId } : {}),
    ...(tag ? { tag: checkTagName(tag) } : {}),
    ...(fields.has("reset_ttl") ? { resetTtl: resetSeconds(fields.get("reset_ttl")) } : {}),
    dryRun: dry === "1",
  };
}

function messagesOf(body: unknown): unknown[] | null {
  const b = body as { messages?: unknown } | null;
  return b && typeof b === "object" && Array.isArray(b.messages) ? (b.messages as unknown[]) : null;
}

function firstMessage(messages: unknown[] | null): { role?: unknown; content?: unknown } | undefined {
  return messages?.[0] as { role?: unknown; content?: unknown } | undefined;
}

/**
 * Whether a chat request names a context cache (header or first `role: "cache"` message). Synchronous, so the
 * chat route awaits resolveCacheUse only for the requests that use one (a promise saved on every other request).
 */
export function namesContextCache(headers: Record<string, string | string[] | undefined>, body: unknown): boolean {
  return headers["x-msh-context-cache"] !== undefined || firstMessage(messagesOf(body))?.role === "cache";
}

export async function resolveCacheUse(opts: {
  ctx: AppContext;
  key: KeyIdentity;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}): Promise<CacheUse | null> {
  const header = opts.headers["x-msh-context-cache"];
  const b = opts.body as { messages?: unknown; tools?: unknown } | null;
  const messages = messagesOf(b);
  const first = firstMessage(messages);
  const byMessage = first?.role === "cache";
  if (header === undefined && !byMessage) return null;
  const { ctx, key } = opts;

  let row: Awaited<ReturnType<typeof getCache>>;
  let body = opts.body;
  let matched: boolean;
  let resetTtl: number | undefined;
  let dryRun: boolean;
  if (byMessage) {
    const spec = parseCacheMessage(first!.content);
    if (b!.tools !== undefined && b!.tools !== null) {
      throw gatewayErrors.invalidRequest("tools must be null when a cache message supplies them");
    }
    const cacheId = spec.cacheId ?? (await getTag(ctx, key.orgId, spec.tag!)).cacheId;
    row = await getCache(ctx, key.orgId, cacheId);
    body = {
      ...(b as object),
      messages: [...row.messages, ...messages!.slice(1)],
      ...(row.tools ? { tools: row.tools } : {}),
    };
    matched = true;
    resetTtl = spec.resetTtl;
    dryRun = spec.dryRun;
  } else {
    row = await getCache(ctx, key.orgId, String(header));
    const n = row.messages.length;
    matched =
      !!messages &&
      messages.length >= n &&
      contentHash(messages.slice(0, n), (b?.tools as unknown[] | undefined) ?? null) === row.contentHash;
    const dry = opts.headers["x-msh-context-cache-dryrun"];
    dryRun = dry === "1" || dry === "true";
    resetTtl = resetSeconds(opts.headers["x-msh-context-cache-reset-ttl"]);
  }

  const now = ctx.clock.now();
  if (resetTtl !== undefined && !dryRun) {
    const expiredAt = new Date(now.getTime() + resetTtl * 1000);
    if (row.status === "inactive") {
      row = await reopenCache(ctx, row, { expiredAt });
    } else {
      await ctx.db
        .update(schema.contextCaches)
        .set({ expiredAt, updatedAt: now })
        .where(eq(schema.contextCaches.id, row.id));
      row = { ...row, expiredAt };
    }
  }
  const usable = matched && row.status === "ready" && row.expiredAt > now;
  return {
    body,
    cacheId: row.id,
    dryRun,
    ...(usable ? { used: { id: row.id, tokens: row.tokens, expiredAt: row.expiredAt } } : {}),
  };
}
