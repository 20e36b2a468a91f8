/**
 * The background half of context caching, run by the jobs runner (jobs/register-jobs.ts):
 *  - `caching.prepare` (one-off per cache): pending → ready, billing the creation once;
 *  - `caching.storage` (every minute, one run per occurrence across instances): bills each started minute of every
 *    ready cache, then marks expired caches inactive.
 * Every line has an id and a time derived from the cache and the minute it pays for, and the writer skips lines it
 * committed before, so a retried or concurrent run never bills twice; counters move only after the lines are
 * committed.
 */
import type { Currency } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { CACHE_CREATION, CACHE_STORAGE } from "../../metering/create-gateway-pipeline.ts";
import type { BillLine } from "../../metering/journal.ts";
import { contextCachingPrices } from "../../metering/pricing.ts";

export const PREPARE_JOB = "caching.prepare";
export const STORAGE_JOB = "caching.storage";

const cc = schema.contextCaches;
/** What billing needs of a cache: everything but its content (which may be 128k tokens of JSON). */
const billingColumns = {
  id: cc.id,
  orgId: cc.orgId,
  projectId: cc.projectId,
  apiKeyId: cc.apiKeyId,
  model: cc.model,
  tokens: cc.tokens,
  status: cc.status,
  expiredAt: cc.expiredAt,
  readyAt: cc.readyAt,
  storageMinutesBilled: cc.storageMinutesBilled,
  creationBilled: cc.creationBilled,
  deletedAt: cc.deletedAt,
  createdAt: cc.createdAt,
};
type CacheRow = Pick<typeof cc.$inferSelect, keyof typeof billingColumns>;
const MINUTE = 60_000;

async function currencyOf(ctx: AppContext, orgId: string): Promise<Currency> {
  const [org] = await ctx.db
    .select({ currency: schema.organizations.currency })
    .from(schema.organizations)
    .where(eq(schema.organizations.id, orgId));
  return org!.currency;
}

function line(row: CacheRow, id: string, productName: string, consumption: bigint, tokens: number): BillLine {
  return {
    id,
    model: row.model,
    productName,
    productType: "context_caching",
    inputTokens: tokens,
    outputTokens: 0,
    cachedTokens: 0,
    toolCalls: 0,
    consumption: consumption.toString(),
    contextCacheId: row.id,
  };
}

/** Minutes of the current ready period that have started by `until` (a started minute is a whole one). */
function startedMinutes(row: Pick<CacheRow, "readyAt" | "expiredAt">, until: Date): number {
  if (!row.readyAt) return 0;
  const end = Math.min(until.getTime(), row.expiredAt.getTime());
  const elapsed = end - row.readyAt.getTime();
  return elapsed <= 0 ? 0 : Math.ceil(elapsed / MINUTE);
}

/**
 * Bills the storage minutes of `row`'s ready period started by `until` and not billed yet; returns how many.
 * Lines are committed before the counter moves.
 */
export async function billStorage(ctx: AppContext, row: CacheRow, until: Date): Promise<number> {
  if (row.status !== "ready" || !row.readyAt) return 0;
  const due = startedMinutes(row, until);
  if (due <= row.storageMinutesBilled) return 0;
  const currency = await currencyOf(ctx, row.orgId);
  const perMinute = BigInt(row.tokens) * contextCachingPrices(currency).storagePerTokenMinute;
  const period = Math.floor(row.readyAt.getTime() / 1000);
  for (let k = row.storageMinutesBilled; k < due; k++) {
    const at = row.readyAt.getTime() + k * MINUTE;
    await ctx.meter.charge({
      requestId: `${row.id}:storage:${period}:${k}`,
      orgId: row.orgId,
      projectId: row.projectId,
      apiKeyId: row.apiKeyId,
      createdAt: at,
      // No tokens on a storage line: keeping tokens is not processing them (usage screens count line tokens).
      lines: [line(row, `bill_cst_${row.id}_${period}_${k}`, CACHE_STORAGE, perMinute, 0)],
    });
  }
  await ctx.meter.flush();
  await ctx.db
    .update(cc)
    .set({ storageMinutesBilled: sql`greatest(${cc.storageMinutesBilled}, ${due})` })
    .where(and(eq(cc.id, row.id), eq(cc.readyAt, row.readyAt)));
  return due - row.storageMinutesBilled;
}

/** `caching.prepare`: a pending cache becomes ready (its content was checked and counted at creation). */
export async function prepareCache(ctx: AppContext, cacheId: string): Promise<void> {
  const [row] = await ctx.db.select(billingColumns).from(cc).where(eq(cc.id, cacheId));
  if (row?.status !== "pending" || row.deletedAt) return;
  const now = ctx.clock.now();
  if (row.expiredAt <= now) {
    await ctx.db.update(cc).set({ status: "inactive", updatedAt: now }).where(eq(cc.id, cacheId));
    return;
  }
  if (!row.creationBilled) {
    const currency = await currencyOf(ctx, row.orgId);
    await ctx.meter.charge({
      requestId: `${row.id}:creation`,
      orgId: row.orgId,
      projectId: row.projectId,
      apiKeyId: row.apiKeyId,
      // Dated when the cache was created, not when this attempt runs: a retry must write the same bill key.
      createdAt: row.createdAt.getTime(),
      lines: [
        line(
          row,
          `bill_ccr_${row.id}`,
          CACHE_CREATION,
          BigInt(row.tokens) * contextCachingPrices(currency).createPerToken,
          row.tokens,
        ),
      ],
    });
    await ctx.meter.flush();
  }
  await ctx.db
    .update(cc)
    .set({ status: "ready", readyAt: now, storageMinutesBilled: 0, creationBilled: true, updatedAt: now })
    .where(and(eq(cc.id, cacheId), eq(cc.status, "pending")));
}

/** `caching.storage`: bills started minutes of every ready cache, then retires expired ones. */
export async function runCacheStorage(ctx: AppContext, now: Date): Promise<{ minutes: number; expired: number }> {
  const rows = await ctx.db
    .select(billingColumns)
    .from(cc)
    .where(and(inArray(cc.status, ["ready", "pending"]), isNull(cc.deletedAt)));
  let minutes = 0;
  let expired = 0;
  for (const row of rows) {
    minutes += await billStorage(ctx, row, now);
    if (row.expiredAt <= now) {
      const done = await ctx.db
        .update(cc)
        .set({ status: "inactive", updatedAt: now })
        .where(and(eq(cc.id, row.id), or(eq(cc.status, "ready"), eq(cc.status, "pending")), lte(cc.expiredAt, now)))
        .returning({ id: cc.id });
      expired += done.length;
    }
  }
  return { minutes, expired };
}
