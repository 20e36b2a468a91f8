/**
 * The money tables: the rows that ARE an organization's money — its cash and cumulative recharge, its vouchers'
 * remaining credit and the ledger of every change to them (docs/decisions/0012-money-tables.md). Only
 * apps/server/src/modules/billing imports this file (`npm run check:boundaries`, rule `money-tables-via-billing`);
 * everything else reads and changes money through the functions of modules/billing/index.ts. It is reached as
 * `@moonport/db/money-schema` and is not part of the `schema` namespace of `@moonport/db`.
 */
import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const money = (name: string) => bigint(name, { mode: "bigint" });
const createdAt = () => ts("created_at").notNull().defaultNow();

/**
 * One row per organization, inserted with it (modules/orgs createOrganization → billing openOrganizationBalance).
 * The organization row stays the lock every balance writer takes first (modules/billing lock-organizations.ts).
 */
export const orgBalances = pgTable("org_balances", {
  orgId: text("org_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  /** Cash balance; may go negative within one request's settlement, never lower. */
  cashBalance: money("cash_balance").notNull().default(sql`0`),
  /** Sum of cash recharges ever; decides the rate-limit tier (vouchers do not count). */
  cumulativeRecharge: money("cumulative_recharge").notNull().default(sql`0`),
});

export const vouchers = pgTable(
  "vouchers",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["activity", "recharge", "register", "kimiVIP", "other"] }).notNull(),
    amount: money("amount").notNull(),
    remaining: money("remaining").notNull(),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("vouchers_org_idx").on(t.orgId, t.expiresAt)],
);

/**
 * Append-only record of every balance change. Sum of cash_delta per org equals org_balances.cash_balance;
 * a test checks it.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind", {
      enum: ["grant", "recharge", "charge", "voucher_grant", "voucher_expiry", "refund"],
    }).notNull(),
    cashDelta: money("cash_delta").notNull().default(sql`0`),
    voucherDelta: money("voucher_delta").notNull().default(sql`0`),
    /** What caused it: a request id, a payment id, an operator note. */
    reference: text("reference"),
    note: text("note"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_org_idx").on(t.orgId, t.createdAt),
    // The idempotency key of credits (a payment, a voucher): repeating one is a no-op. Charges are left out:
    // their references are bill line ids, unique already, and the batch writer's inserts stay index-light.
    uniqueIndex("ledger_kind_reference_uq")
      .on(t.kind, t.reference)
      .where(sql`${t.reference} is not null and ${t.kind} <> 'charge'`),
  ],
);
