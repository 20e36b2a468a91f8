/** Accounts for gateway tests: a user, an organization with a project and a key, money through the ledger. */
import type { Edition } from "@moonport/contracts";
import { type Db, newId, schema } from "@moonport/db";
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../src/context.ts";
import type { Admission, KeyIdentity } from "../src/metering/pipeline.ts";
import { auditOrganizationLedger } from "../src/modules/billing/index.ts";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { createOrganization } from "../src/modules/orgs/create-organization.ts";
import { seedGrant, seedRecharge, seedVoucher } from "./support/money.ts";

export interface SeededAccount {
  userId: string;
  orgId: string;
  projectId: string;
  keyId: string;
  key: string;
}

export async function seedAccount(
  ctx: AppContext,
  opts: { edition?: Edition; cash?: string; tierOverride?: number; recharge?: string } = {},
): Promise<SeededAccount> {
  const db = ctx.db;
  const userId = newId("user");
  await db.insert(schema.users).values({ id: userId, username: `u${userId.slice(-10)}` });
  const { orgId, projectId } = await createOrganization({
    db,
    name: "Test org",
    edition: opts.edition ?? "cn",
    creatorUserId: userId,
    creatorNickname: "tester",
  });
  if (opts.tierOverride !== undefined) {
    await db
      .update(schema.organizations)
      .set({ tierOverride: opts.tierOverride })
      .where(eq(schema.organizations.id, orgId));
  }
  if (opts.recharge) await seedRecharge(ctx, orgId, opts.recharge);
  if (opts.cash) await seedGrant(ctx, orgId, opts.cash);
  const { id: keyId, key } = await createApiKey({ db, orgId, projectId, name: "test", createdBy: userId });
  return { userId, orgId, projectId, keyId, key };
}

/** A voucher and its ledger entry, issued by the billing core. */
export function grantVoucher(ctx: AppContext, orgId: string, amount: string, expiresAt: Date): Promise<string> {
  return seedVoucher(ctx, orgId, amount, expiresAt);
}

/** Money of an organization and its ledger's sums as the billing core audits them, and its bill rows' sums. */
export async function orgMoney(db: Db, orgId: string) {
  const ledger = await auditOrganizationLedger({ db, orgId });
  const [bills] = await db
    .select({
      count: sql<number>`count(*)::int`,
      requests: sql<number>`count(distinct ${schema.requestBills.requestId})::int`,
      consumption: sql<string>`coalesce(sum(${schema.requestBills.consumption}), 0)`,
      cash: sql<string>`coalesce(sum(${schema.requestBills.cashDeduction}), 0)`,
      voucher: sql<string>`coalesce(sum(${schema.requestBills.voucherDeduction}), 0)`,
      input: sql<string>`coalesce(sum(${schema.requestBills.inputTokens}), 0)`,
      output: sql<string>`coalesce(sum(${schema.requestBills.outputTokens}), 0)`,
    })
    .from(schema.requestBills)
    .where(eq(schema.requestBills.orgId, orgId));
  return {
    ...ledger,
    bills: {
      count: bills!.count,
      requests: bills!.requests,
      consumption: BigInt(bills!.consumption),
      cash: BigInt(bills!.cash),
      voucher: BigInt(bills!.voucher),
      input: Number(bills!.input),
      output: Number(bills!.output),
    },
  };
}

/** authenticate → admit → settle, as a /v1 route does. */
export async function runRequest(
  ctx: AppContext,
  key: string,
  opts: {
    requestId?: string;
    model?: string;
    admissionTokens?: number;
    usage?: { promptTokens: number; completionTokens: number; cachedTokens: number };
    webSearchCalls?: number;
  } = {},
): Promise<{ identity: KeyIdentity; admission: Admission }> {
  const gw = ctx.meter;
  const identity = await gw.authenticate(`Bearer ${key}`);
  const admission = await gw.admit({
    key: identity,
    requestId: opts.requestId ?? newId("req"),
    model: opts.model ?? "moonshot-v1-8k",
    admissionTokens: opts.admissionTokens ?? 100,
  });
  await gw.settle({
    admission,
    usage: opts.usage ?? { promptTokens: 10, completionTokens: 20, cachedTokens: 0 },
    webSearchCalls: opts.webSearchCalls ?? 0,
    status: "ok",
  });
  return { identity, admission };
}
