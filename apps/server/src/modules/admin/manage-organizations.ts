import {
  type AdminGrantRequest,
  type AdminLimitsRequest,
  type AdminOrganizationDetail,
  parseMoney,
  tierFor,
} from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { creditCash, getOrganizationBalance, listLedgerEntries } from "../billing/index.ts";
import { recordOperatorAction } from "./record-operator-action.ts";

type Ctx = Pick<AppContext, "db" | "keyEvents" | "log" | "clock">;

/** An organization as the back office shows it: balance, tier and overrides, members, projects, recent ledger. */
export async function getAdminOrganization(opts: { ctx: Ctx; orgId: string }): Promise<AdminOrganizationDetail> {
  const { db } = opts.ctx;
  const now = opts.ctx.clock.now();
  const o = schema.organizations;
  const [org] = await db.select().from(o).where(eq(o.id, opts.orgId));
  if (!org) throw new AppError("not_found");
  const [balance, members, projects, ledger] = await Promise.all([
    getOrganizationBalance({ db, orgId: org.id, now }),
    db
      .select({ userId: schema.orgMembers.userId, username: schema.users.username, role: schema.orgMembers.role })
      .from(schema.orgMembers)
      .innerJoin(schema.users, eq(schema.users.id, schema.orgMembers.userId))
      .where(eq(schema.orgMembers.orgId, org.id)),
    db
      .select({ id: schema.projects.id, name: schema.projects.name, status: schema.projects.status })
      .from(schema.projects)
      .where(eq(schema.projects.orgId, org.id)),
    listLedgerEntries({ db, orgId: org.id, limit: 20 }),
  ]);
  const cash = balance?.cash ?? 0n;
  const voucher = balance?.voucher ?? 0n;
  const cumulativeRecharge = balance?.cumulativeRecharge ?? 0n;
  const tier = tierFor({ ...org, cumulativeRecharge });
  return {
    id: org.id,
    name: org.name,
    edition: org.edition,
    currency: org.currency,
    personal: org.personal,
    createdAt: org.createdAt.toISOString(),
    members: members.length,
    balance: {
      cash: cash.toString(),
      voucher: voucher.toString(),
      total: (cash + voucher).toString(),
    },
    cumulativeRecharge: cumulativeRecharge.toString(),
    tier: { tier: tier.tier, name: tier.name },
    tierOverride: org.tierOverride,
    tierFloor: org.tierFloor,
    rateLimitOverride: org.rateLimitOverride,
    verification: org.verification,
    suspendedAt: org.suspendedAt?.toISOString() ?? null,
    suspendReason: org.suspendReason,
    memberList: members,
    projects,
    ledger: ledger.map((l) => ({
      id: l.id,
      kind: l.kind,
      amount: (l.cashDelta + l.voucherDelta).toString(),
      note: l.note,
      createdAt: l.createdAt.toISOString(),
    })),
  };
}

/** Grants cash (ledger kind "grant": not a recharge, the tier stays), recorded with the operator's note. */
export async function grantOrganizationCredit(opts: {
  ctx: Ctx;
  orgId: string;
  operator: string;
  body: AdminGrantRequest;
}) {
  const amount = parseMoney(opts.body.amount);
  await withTransaction({ db: opts.ctx.db, log: opts.ctx.log }, async (tx) => {
    const org = await getOrganizationBalance({ db: tx, orgId: opts.orgId });
    if (!org) throw new AppError("not_found");
    const { cashBalance } = await creditCash({
      ctx: opts.ctx,
      tx,
      orgId: opts.orgId,
      amount,
      kind: "grant",
      reference: null,
      note: `operator grant: ${opts.body.note}`,
      createdBy: opts.operator,
    });
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: "org.grant",
      target: opts.orgId,
      before: { cash: org.cash.toString() },
      after: { cash: cashBalance.toString() },
      details: { amount: amount.toString(), note: opts.body.note },
    });
  });
  return getAdminOrganization(opts);
}

/** Sets the tier override and the limits above the tier; running gateways follow within a second. */
export async function setOrganizationLimits(opts: {
  ctx: Ctx;
  orgId: string;
  operator: string;
  body: AdminLimitsRequest;
}) {
  const override = opts.body.rateLimitOverride;
  const cleaned = override && Object.keys(override).length > 0 ? override : null;
  await withTransaction({ db: opts.ctx.db, log: opts.ctx.log }, async (tx, afterCommit) => {
    const [org] = await tx
      .select({
        tierOverride: schema.organizations.tierOverride,
        rateLimitOverride: schema.organizations.rateLimitOverride,
      })
      .from(schema.organizations)
      .where(eq(schema.organizations.id, opts.orgId))
      .for("update");
    if (!org) throw new AppError("not_found");
    await tx
      .update(schema.organizations)
      .set({ tierOverride: opts.body.tierOverride, rateLimitOverride: cleaned })
      .where(eq(schema.organizations.id, opts.orgId));
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: "org.set_limits",
      target: opts.orgId,
      before: org,
      after: { tierOverride: opts.body.tierOverride, rateLimitOverride: cleaned },
    });
    afterCommit(() => opts.ctx.keyEvents.invalidate({ orgId: opts.orgId }));
  });
  return getAdminOrganization(opts);
}

/** Suspends (the gateway refuses the organization's keys) or resumes an organization. */
export async function setOrganizationSuspended(opts: {
  ctx: Ctx;
  orgId: string;
  operator: string;
  suspend: boolean;
  reason?: string;
}) {
  await withTransaction({ db: opts.ctx.db, log: opts.ctx.log }, async (tx, afterCommit) => {
    const [org] = await tx
      .select({ suspendedAt: schema.organizations.suspendedAt, suspendReason: schema.organizations.suspendReason })
      .from(schema.organizations)
      .where(eq(schema.organizations.id, opts.orgId))
      .for("update");
    if (!org) throw new AppError("not_found");
    if (Boolean(org.suspendedAt) === opts.suspend) return;
    const after = opts.suspend
      ? { suspendedAt: opts.ctx.clock.now(), suspendReason: opts.reason ?? null }
      : { suspendedAt: null, suspendReason: null };
    await tx.update(schema.organizations).set(after).where(eq(schema.organizations.id, opts.orgId));
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: opts.suspend ? "org.suspend" : "org.resume",
      target: opts.orgId,
      before: { suspendedAt: org.suspendedAt?.toISOString() ?? null, suspendReason: org.suspendReason },
      after: { suspendedAt: after.suspendedAt?.toISOString() ?? null, suspendReason: after.suspendReason },
    });
    afterCommit(() => opts.ctx.keyEvents.invalidate({ orgId: opts.orgId }));
  });
  return getAdminOrganization(opts);
}
