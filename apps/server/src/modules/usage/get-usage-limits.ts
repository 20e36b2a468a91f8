import {
  EDITION_TIME_ZONE,
  TIERS,
  type Tier,
  type TierRow,
  tierProgress,
  type UsageLimits,
  withLimitOverride,
} from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { dayPeriod, localDate } from "../../lib/edition-time.ts";
import { getTierBasis } from "../billing/index.ts";
import { usageIn } from "./bill-queries.ts";

function toTierRow(t: Tier): TierRow {
  return {
    tier: t.tier,
    name: t.name,
    recharge: t.cumulativeRecharge.toString(),
    concurrency: t.concurrency,
    rpm: t.rpm,
    tpm: t.tpm,
    tpd: t.tpd,
  };
}

/**
 * The organization's tier, the whole tier table of its edition, and current use counted from bill rows (the
 * gateway's limiter does not expose its live counters): requests and tokens of the last 60 seconds, tokens of
 * today in the edition's zone. Access: organization members (limits are shared by all projects).
 */
export async function getUsageLimits(opts: { ctx: AppContext; access: OrgAccess; now?: Date }): Promise<UsageLimits> {
  const { db } = opts.ctx;
  const { org } = opts.access;
  const now = opts.now ?? new Date();
  const tz = EDITION_TIME_ZONE[org.edition];
  // What the gateway enforces: the tier with the operator's limits above it, if any.
  const basis = await getTierBasis({ db, org });
  const progress = tierProgress(basis);
  const tier = withLimitOverride(progress.tier, org.rateLimitOverride);
  const rb = schema.requestBills;
  const [minute] = await db
    .select({
      requests: sql<string>`count(distinct ${rb.requestId})::text`,
      tokens: sql<string>`coalesce(sum(${rb.inputTokens} + ${rb.outputTokens}), 0)::text`,
    })
    .from(rb)
    .where(
      and(eq(rb.orgId, org.id), sql`${rb.createdAt} > ${new Date(now.getTime() - 60_000).toISOString()}::timestamptz`),
    );
  const today = await usageIn(db, { orgId: org.id, projectIds: null }, dayPeriod(localDate(now, tz)), tz);
  return {
    edition: org.edition,
    currency: org.currency,
    cumulativeRecharge: basis.cumulativeRecharge.toString(),
    tier: toTierRow(tier),
    tierSource: progress.source,
    nextTier: progress.next ? toTierRow(progress.next) : null,
    toNextTier: progress.toNext?.toString() ?? null,
    tiers: TIERS[org.edition].map(toTierRow),
    current: {
      concurrency: null,
      rpm: Number(minute?.requests ?? 0),
      tpm: Number(minute?.tokens ?? 0),
      tpd: today.tokens,
    },
    source: "request_bills",
  };
}
