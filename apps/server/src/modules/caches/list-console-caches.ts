/**
 * The console's Context Caching table and savings summary: the organization's caches (deleted ones included, with
 * status `deleted`) with their figures summed from the bill lines that carry their id (request_bills' partial
 * index on context_cache_id).
 */
import {
  type CachePage,
  type ConsoleCache,
  findModel,
  perTokenNanos,
  tierFor,
  withLimitOverride,
} from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { CACHE_CALL, CACHE_CREATION, CACHE_STORAGE } from "../../metering/create-gateway-pipeline.ts";
import { getTierBasis } from "../billing/index.ts";

const cc = schema.contextCaches;
const rb = schema.requestBills;

interface Figures {
  minutes: number;
  calls: number;
  chatTokens: number;
  chat: bigint;
  call: bigint;
  creation: bigint;
  storage: bigint;
  /** What the cached tokens would have cost as input. */
  avoided: bigint;
  cachedTokens: number;
}

const empty = (): Figures => ({
  minutes: 0,
  calls: 0,
  chatTokens: 0,
  chat: 0n,
  call: 0n,
  creation: 0n,
  storage: 0n,
  avoided: 0n,
  cachedTokens: 0,
});

/** Per cache id: the figures of its bill lines (grouped by product and model in SQL, priced here). */
async function figuresOf(ctx: AppContext, orgId: string, currency: "CNY" | "USD", ids: string[] | null) {
  const rows = await ctx.db
    .select({
      cacheId: rb.contextCacheId,
      productName: rb.productName,
      productType: rb.productType,
      model: rb.model,
      lines: sql<string>`count(*)::text`,
      tokens: sql<string>`coalesce(sum(${rb.inputTokens} + ${rb.outputTokens}), 0)::text`,
      cached: sql<string>`coalesce(sum(${rb.cachedTokens}), 0)::text`,
      consumption: sql<string>`coalesce(sum(${rb.consumption}), 0)::text`,
    })
    .from(rb)
    .where(and(eq(rb.orgId, orgId), ids ? inArray(rb.contextCacheId, ids) : sql`${rb.contextCacheId} is not null`))
    .groupBy(rb.contextCacheId, rb.productName, rb.productType, rb.model);
  const out = new Map<string, Figures>();
  for (const r of rows) {
    const f = out.get(r.cacheId!) ?? empty();
    out.set(r.cacheId!, f);
    const amount = BigInt(r.consumption);
    if (r.productType === "model_inference") {
      f.chatTokens += Number(r.tokens);
      f.chat += amount;
      f.cachedTokens += Number(r.cached);
      const model = findModel(r.model);
      if (model) f.avoided += BigInt(r.cached) * perTokenNanos(model.prices[currency].input);
    } else if (r.productName === CACHE_CALL) {
      f.calls += Number(r.lines);
      f.call += amount;
    } else if (r.productName === CACHE_CREATION) {
      f.creation += amount;
    } else if (r.productName === CACHE_STORAGE) {
      f.minutes += Number(r.lines);
      f.storage += amount;
    }
  }
  return out;
}

const cost = (f: Figures) => f.call + f.creation + f.storage;

export async function listConsoleCaches(opts: {
  ctx: AppContext;
  access: OrgAccess;
  page: number;
  pageSize: number;
}): Promise<CachePage> {
  const { ctx, access, page, pageSize } = opts;
  const org = access.org;
  const [rows, [count], all] = await Promise.all([
    ctx.db
      .select()
      .from(cc)
      .where(eq(cc.orgId, org.id))
      .orderBy(desc(cc.createdAt), desc(cc.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(cc).where(eq(cc.orgId, org.id)),
    figuresOf(ctx, org.id, org.currency, null),
  ]);
  const items: ConsoleCache[] = rows.map((row) => {
    const f = all.get(row.id) ?? empty();
    return {
      id: row.id,
      name: row.name,
      status: row.deletedAt ? "deleted" : row.status,
      model: row.model,
      tokens: row.tokens,
      createdAt: row.createdAt.toISOString(),
      expiredAt: row.expiredAt.toISOString(),
      billingMinutes: f.minutes,
      calls: f.calls,
      chatTokens: f.chatTokens,
      spend: {
        chat: f.chat.toString(),
        call: f.call.toString(),
        creation: f.creation.toString(),
        storage: f.storage.toString(),
        total: (f.chat + cost(f)).toString(),
      },
      savings: (f.avoided - cost(f)).toString(),
    };
  });
  let spend = 0n;
  let savings = 0n;
  let calls = 0;
  let cachedTokens = 0;
  for (const f of all.values()) {
    spend += f.chat + cost(f);
    savings += f.avoided - cost(f);
    calls += f.calls;
    cachedTokens += f.cachedTokens;
  }
  const tier = withLimitOverride(tierFor(await getTierBasis({ db: ctx.db, org })), org.rateLimitOverride);
  return {
    items,
    total: count?.n ?? 0,
    page,
    pageSize,
    currency: org.currency,
    summary: { caches: count?.n ?? 0, calls, cachedTokens, spend: spend.toString(), savings: savings.toString() },
    tpm: tier.tpm,
  };
}
