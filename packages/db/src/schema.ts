/**
 * One drizzle schema for PGlite and PostgreSQL. Money columns are bigint nano-units (1e-9 of the currency unit,
 * see packages/contracts/src/money.ts). Times are timestamptz in UTC. Ids are prefixed random strings.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const money = (name: string) => bigint(name, { mode: "bigint" });
const createdAt = () => ts("created_at").notNull().defaultNow();

// ─── accounts ──────────────────────────────────────────────────────────────────────────────────────────────────

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    username: text("username"),
    /** E.164, e.g. +8613812345678 */
    phone: text("phone"),
    passwordHash: text("password_hash"),
    role: text("role", { enum: ["user", "operator"] })
      .notNull()
      .default("user"),
    /** The organization the console opens on; switching persists here. */
    currentOrgId: text("current_org_id"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_username_lower_uq").on(sql`lower(${t.username})`),
    uniqueIndex("users_phone_uq").on(t.phone),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the cookie token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    /** SHA-256 of the CSRF token bound to this session (double-submit). */
    csrfHash: text("csrf_hash").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("sessions_token_hash_uq").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

export const smsCodes = pgTable(
  "sms_codes",
  {
    id: text("id").primaryKey(),
    phone: text("phone").notNull(),
    purpose: text("purpose", { enum: ["signup", "signin", "bind_old", "bind_new"] }).notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    consumedAt: ts("consumed_at"),
  },
  (t) => [index("sms_codes_phone_purpose_idx").on(t.phone, t.purpose, t.createdAt)],
);

/** Messages the development SMS provider "sent"; read by tests and the dev outbox endpoint. */
export const smsOutbox = pgTable("sms_outbox", {
  id: text("id").primaryKey(),
  phone: text("phone").notNull(),
  text: text("text").notNull(),
  code: text("code"),
  createdAt: createdAt(),
});

/** One-time operator setup tokens printed at first start. */
export const setupTokens = pgTable("setup_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  createdAt: createdAt(),
  usedAt: ts("used_at"),
});

// ─── organizations ─────────────────────────────────────────────────────────────────────────────────────────────

export const organizations = pgTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  edition: text("edition", { enum: ["cn", "global"] }).notNull(),
  currency: text("currency", { enum: ["CNY", "USD"] }).notNull(),
  personal: boolean("personal").notNull().default(false),
  /** Cash balance; may go negative within one request's settlement, never lower. */
  cashBalance: money("cash_balance").notNull().default(sql`0`),
  /** Sum of cash recharges ever; decides the rate-limit tier (vouchers do not count). */
  cumulativeRecharge: money("cumulative_recharge").notNull().default(sql`0`),
  /** Optional operator override of the tier. */
  tierOverride: integer("tier_override"),
  /**
   * Operator-granted limits above the tier tables ("higher limits on request", api-compat §8.3): any of
   * concurrency, rpm, tpm, tpd (tpd null = unlimited) replaces the tier's value. Null = the tier's limits.
   */
  rateLimitOverride: jsonb("rate_limit_override").$type<{
    concurrency?: number;
    rpm?: number;
    tpm?: number;
    tpd?: number | null;
  }>(),
  verification: text("verification", {
    enum: ["unverified", "personal", "company", "company_changing"],
  })
    .notNull()
    .default("unverified"),
  createdBy: text("created_by").notNull(),
  createdAt: createdAt(),
});

export const orgMembers = pgTable(
  "org_members",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    nickname: text("nickname").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index("org_members_user_idx").on(t.userId)],
);

/** A pending member is an open invitation; accepting it creates the org_members row. */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    phone: text("phone").notNull(),
    nickname: text("nickname").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    acceptedBy: text("accepted_by"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("invitations_token_uq").on(t.tokenHash), index("invitations_org_idx").on(t.orgId)],
);

export const projects = pgTable(
  "projects",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    isDefault: boolean("is_default").notNull().default(false),
    status: text("status", { enum: ["active", "archived"] })
      .notNull()
      .default("active"),
    /** Budgets and alert amounts are whole currency units (spec §5: "budgets integers"); null = none. */
    monthlyBudget: bigint("monthly_budget", { mode: "number" }),
    dailyBudget: bigint("daily_budget", { mode: "number" }),
    monthlyAlert: bigint("monthly_alert", { mode: "number" }),
    dailyAlert: bigint("daily_alert", { mode: "number" }),
    /** Per-project TPM cap; cannot exceed the organization's tier TPM. */
    tpmLimit: integer("tpm_limit"),
    createdAt: createdAt(),
    archivedAt: ts("archived_at"),
  },
  (t) => [
    index("projects_org_idx").on(t.orgId),
    // Names are unique per organization in any letter case; archived projects keep theirs (see ARCHITECTURE.md).
    uniqueIndex("projects_org_name_lower_uq").on(t.orgId, sql`lower(${t.name})`),
  ],
);

export const projectMembers = pgTable(
  "project_members",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 hex of the full key; the key is shown once and never stored. */
    keyHash: text("key_hash").notNull(),
    /** e.g. "sk-abcd…wxyz" */
    mask: text("mask").notNull(),
    createdBy: text("created_by").notNull(),
    status: text("status", { enum: ["enabled", "disabled"] })
      .notNull()
      .default("enabled"),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    deletedAt: ts("deleted_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_project_idx").on(t.projectId)],
);

// ─── money ─────────────────────────────────────────────────────────────────────────────────────────────────────

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
 * Append-only record of every balance change. Sum of cash_delta per org equals organizations.cash_balance;
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

/**
 * One row per metered product line of a request (spec §3 bill rows): the model inference, and a separate
 * `$web_search` line for the per-call search fee when the response called it. `id` is generated by the gateway
 * when it records the bill and makes recording idempotent (replaying the journal never bills twice); request ids
 * can come from clients, so they are not unique keys.
 */
export const requestBills = pgTable(
  "request_bills",
  {
    id: text("id").primaryKey(),
    requestId: text("request_id").notNull(),
    orgId: text("org_id").notNull(),
    projectId: text("project_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    model: text("model").notNull(),
    productName: text("product_name").notNull(),
    productType: text("product_type").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    cachedTokens: integer("cached_tokens").notNull().default(0),
    /** Billed tool calls on a tool line (e.g. `$web_search` calls); 0 on inference lines. */
    toolCalls: integer("tool_calls").notNull().default(0),
    consumption: money("consumption").notNull().default(sql`0`),
    cashDeduction: money("cash_deduction").notNull().default(sql`0`),
    voucherDeduction: money("voucher_deduction").notNull().default(sql`0`),
    status: text("status").notNull(),
    latencyMs: integer("latency_ms").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("request_bills_request_idx").on(t.requestId),
    index("request_bills_org_time_idx").on(t.orgId, t.createdAt),
    index("request_bills_project_time_idx").on(t.projectId, t.createdAt),
  ],
);

/** Small key/value store for instance-wide settings (e.g. the operator setup state). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

// ─── jobs ──────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Durable background jobs (apps/server/src/jobs). A row is due when `run_at` ≤ the domain clock; an instance
 * claims it by setting `locked_by`/`locked_until` (SKIP LOCKED, so instances never claim the same row). A job that
 * succeeds is deleted, or, when periodic, moved to its next `run_at`; one that fails is retried with exponential
 * backoff until `max_attempts`, then kept with status `failed`. `key` makes a job a singleton (periodic jobs use
 * `periodic:<name>`).
 */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    key: text("key"),
    payload: jsonb("payload").notNull().default(sql`'{}'::jsonb`),
    status: text("status", { enum: ["pending", "failed"] })
      .notNull()
      .default("pending"),
    runAt: ts("run_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(10),
    lockedBy: text("locked_by"),
    lockedUntil: ts("locked_until"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("jobs_key_uq").on(t.key), index("jobs_due_idx").on(t.status, t.runAt)],
);
