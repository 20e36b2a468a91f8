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
    /** Set by an operator: sign-in is refused and the user's sessions are revoked. */
    disabledAt: ts("disabled_at"),
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
  /** Optional operator override of the tier: while set, it is the tier (an explicit back-office setting). */
  tierOverride: integer("tier_override"),
  /**
   * Tier floor from a redeemed voucher code (the highest minimum tier redeemed): the tier is the higher of this and
   * the tier earned by cumulative recharge, so later recharges still raise it.
   */
  tierFloor: integer("tier_floor"),
  /**
   * Operator-granted limits above the tier tables ("higher limits on request", docs/api-compat.md §8.3): any of
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
  /** Set by an operator: the gateway refuses the organization's keys (403) until it is resumed. */
  suspendedAt: ts("suspended_at"),
  suspendReason: text("suspend_reason"),
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
    /**
     * Budgets and alert amounts are whole currency units (docs/product-spec.md §5: "budgets integers"); null = none.
     */
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
    // Names are unique per organization in any letter case; archived projects keep theirs (see modules/README.md).
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

// ─── usage bills (money tables: packages/db/src/money-schema.ts) ─────────────────────────────────────────────

/**
 * One row per metered product line of a request (docs/product-spec.md §3 bill rows): the model inference, and a
 * separate `$web_search` line for the per-call search fee when the response called it. `id` is generated by the gateway
 * when it records the bill; request ids can come from clients, so they are not unique keys.
 *
 * Every index here is written on the gateway's batch commit, and with PGlite each costs gateway CPU (dropping two
 * B-trees measured 0.89 × the CPU per request; docs/decisions/0010-bill-primary-key-as-timeline.md), so there are only
 * the ones the reads need. The primary key (org_id, created_at, id) is also the organization's timeline: Request
 * Details' keyset, `(created_at, id) < cursor order by created_at desc, id desc`, is one backward range of it with no
 * sort, and so are the usage screens' and exports' time ranges. It makes recording idempotent too: a line is always
 * written with the time it was journaled with (replays reuse the entry; `GatewayPipeline.charge` callers pass a time
 * derived from what they bill), so a replayed line meets its own key. Budgets read project_spend_days, not this.
 */
export const requestBills = pgTable(
  "request_bills",
  {
    id: text("id").notNull(),
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
    /** The explicit context cache a line belongs to (its creation, storage, calls, and chats that used it). */
    contextCacheId: text("context_cache_id"),
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
    primaryKey({ name: "request_bills_pkey", columns: [t.orgId, t.createdAt, t.id] }),
    // Partial: only cache lines have one, so chat bills pay nothing for it.
    index("request_bills_context_cache_idx").on(t.contextCacheId).where(sql`context_cache_id is not null`),
    // BRIN: a few pages summarising the append-only table by time, for the back office's platform-wide ranges
    // (a B-tree here would cost every gateway insert far more).
    index("request_bills_time_brin").using("brin", t.createdAt),
  ],
);

/**
 * What each project spent per local day (the edition's zone): the running total of its request_bills
 * consumption, upserted by the bill writer in the batch that writes the rows, so the two never disagree. The
 * gateway's budget checks read a month of it (at most 31 rows) instead of summing a month of bill rows every
 * second for every budgeted project, and request_bills needs no project index for them.
 */
export const projectSpendDays = pgTable(
  "project_spend_days",
  {
    projectId: text("project_id").notNull(),
    /** local date "YYYY-MM-DD" in the edition's zone */
    day: text("day").notNull(),
    consumption: money("consumption").notNull().default(sql`0`),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
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

// ─── bills, exports, alerts, mail ────────────────────────────────────────────────────────────────────────────

/**
 * Finalized daily bills: request_bills summed per organization, local day (edition zone), project, model and
 * product, written by the `bills.finalize-days` job at 07:00 of the next day (never by the gateway). Days after
 * `bill_states.closed_through` are read live from request_bills, so the screens are real-time while the tables
 * the gateway writes stay untouched.
 */
export const dailyBills = pgTable(
  "daily_bills",
  {
    orgId: text("org_id").notNull(),
    /** local date "YYYY-MM-DD" in the edition's zone */
    day: text("day").notNull(),
    projectId: text("project_id").notNull(),
    model: text("model").notNull(),
    productName: text("product_name").notNull(),
    productType: text("product_type").notNull(),
    requests: bigint("requests", { mode: "number" }).notNull().default(0),
    inputTokens: bigint("input_tokens", { mode: "number" }).notNull().default(0),
    outputTokens: bigint("output_tokens", { mode: "number" }).notNull().default(0),
    cachedTokens: bigint("cached_tokens", { mode: "number" }).notNull().default(0),
    consumption: money("consumption").notNull().default(sql`0`),
    cashDeduction: money("cash_deduction").notNull().default(sql`0`),
    voucherDeduction: money("voucher_deduction").notNull().default(sql`0`),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day, t.projectId, t.model, t.productName, t.productType] })],
);

/** Per organization: the last local day whose bills are final (in daily_bills). */
export const billStates = pgTable("bill_states", {
  orgId: text("org_id").primaryKey(),
  closedThrough: text("closed_through").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Monthly bill exports, produced by the `bills.export` job; the file lives in the export storage (DATA_DIR). */
export const billExports = pgTable(
  "bill_exports",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    /** "YYYY-MM", a local month of the edition's zone */
    month: text("month").notNull(),
    format: text("format", { enum: ["xlsx", "csv"] }).notNull(),
    status: text("status", { enum: ["pending", "success", "failed"] })
      .notNull()
      .default("pending"),
    fileName: text("file_name").notNull(),
    /** key in the export storage; set on success */
    storageKey: text("storage_key"),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    rowCount: bigint("row_count", { mode: "number" }),
    totalConsumption: money("total_consumption"),
    error: text("error"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    finishedAt: ts("finished_at"),
  },
  (t) => [index("bill_exports_org_time_idx").on(t.orgId, t.createdAt)],
);

/**
 * Alert settings of an organization: the balance alert (threshold in whole currency units, docs/product-spec.md §5) and
 * the e-mail recipients of every alert. `armed` is true while an e-mail may be sent: cleared when one is sent, set
 * again once the available balance is at or above the threshold.
 */
export const alertSettings = pgTable("alert_settings", {
  orgId: text("org_id").primaryKey(),
  balanceEnabled: boolean("balance_enabled").notNull().default(false),
  balanceThreshold: bigint("balance_threshold", { mode: "number" }).notNull().default(0),
  recipients: jsonb("recipients").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  /** language of the alert e-mails (the admin's who saved them) */
  locale: text("locale").notNull().default("zh-CN"),
  armed: boolean("armed").notNull().default(true),
  lastSentAt: ts("last_sent_at"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** One row per project consumption alert sent: at most one per project, kind and period. */
export const projectAlertSends = pgTable(
  "project_alert_sends",
  {
    projectId: text("project_id").notNull(),
    kind: text("kind", { enum: ["daily", "monthly"] }).notNull(),
    /** "YYYY-MM-DD" or "YYYY-MM" */
    period: text("period").notNull(),
    sentAt: ts("sent_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.kind, t.period] })],
);

/** What the development mail transport "sent" (MAIL_TRANSPORT=dev), read by GET /api/dev/mail-outbox. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    to: jsonb("to").$type<string[]>().notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_time_idx").on(t.createdAt)],
);

// ─── payments ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A recharge order (docs/product-spec.md §3 Payment, §4 states). `waiting` until the provider confirms (→ success,
 * credited through the billing core with the payment id as the ledger reference), declines (→ failed), or the order is
 * cancelled / auto-closed after a day (→ closed); while one waits, the organization cannot start another. `flag`
 * marks a provider notification that arrived for a closed order: never credited automatically, left to an operator
 * (see modules/payments/README.md).
 */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    amount: money("amount").notNull(),
    currency: text("currency", { enum: ["CNY", "USD"] }).notNull(),
    payType: text("pay_type", {
      enum: ["wxpay", "alipay", "unionpay", "publicpay", "b2bbank", "b2btransfer", "credit_card"],
    }).notNull(),
    provider: text("provider").notNull(),
    status: text("status", { enum: ["waiting", "success", "failed", "closed"] })
      .notNull()
      .default("waiting"),
    /** The provider's id of the checkout/charge (unique per provider). */
    providerRef: text("provider_ref"),
    /**
     * What the payer opens to pay, as the provider issued it: a QR payload (Alipay `qr_code`, WeChat Pay
     * `code_url`) or a hosted checkout URL. Null for cards and transfers, and for sandbox orders, whose signed
     * checkout link is derived from the order itself.
     */
    providerCheckout: text("provider_checkout"),
    /** Corporate transfers: the reference the payer writes on the transfer. */
    transferReference: text("transfer_reference"),
    cardId: text("card_id"),
    failureReason: text("failure_reason"),
    flag: text("flag"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    finishedAt: ts("finished_at"),
    /** How much of `amount` is held by invoices that are not voided; written only by modules/invoices. */
    invoicedAmount: money("invoiced_amount").notNull().default(sql`0`),
    /** How much of `amount` went back to the payer; written only by modules/refunds. */
    refundedAmount: money("refunded_amount").notNull().default(sql`0`),
  },
  (t) => [
    index("payments_org_time_idx").on(t.orgId, t.createdAt),
    index("payments_waiting_idx").on(t.status, t.createdAt),
    uniqueIndex("payments_provider_ref_uq").on(t.provider, t.providerRef),
    uniqueIndex("payments_transfer_reference_uq").on(t.transferReference),
  ],
);

/**
 * Every provider notification we accepted (signature verified), keyed by the provider's event/transaction id:
 * the unique key makes a repeated delivery a no-op in the same transaction as the credit.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    paymentId: text("payment_id").notNull(),
    outcome: text("outcome", { enum: ["credited", "failed", "flagged", "ignored"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("payment_events_provider_event_uq").on(t.provider, t.eventId)],
);

/** Bound cards: only the provider's token and what a card list shows; the number and CVC never reach us. */
export const paymentCards = pgTable(
  "payment_cards",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    token: text("token").notNull(),
    /** The provider's customer the card is saved on (Stripe `cus_…`); null for the sandbox. */
    providerCustomer: text("provider_customer"),
    brand: text("brand").notNull(),
    last4: text("last4").notNull(),
    expMonth: integer("exp_month").notNull(),
    expYear: integer("exp_year").notNull(),
    /** Customer information entered with the card (billing details sent to the provider). */
    customer: jsonb("customer").notNull().$type<Record<string, string>>(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("payment_cards_org_idx").on(t.orgId), uniqueIndex("payment_cards_token_uq").on(t.provider, t.token)],
);

/** Voucher redemption codes, generated in batches by operators. Only the SHA-256 of a code is stored. */
export const redemptionCodes = pgTable(
  "redemption_codes",
  {
    id: text("id").primaryKey(),
    codeHash: text("code_hash").notNull(),
    batchId: text("batch_id").notNull(),
    edition: text("edition", { enum: ["cn", "global"] }).notNull(),
    amount: money("amount").notNull(),
    voucherType: text("voucher_type", { enum: ["activity", "recharge", "register", "kimiVIP", "other"] }).notNull(),
    voucherDays: integer("voucher_days").notNull(),
    /** Raises the redeeming organization to at least this tier (null: no effect on the tier). */
    minTier: integer("min_tier"),
    expiresAt: ts("expires_at").notNull(),
    redeemedByOrg: text("redeemed_by_org"),
    redeemedAt: ts("redeemed_at"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("redemption_codes_hash_uq").on(t.codeHash), index("redemption_codes_batch_idx").on(t.batchId)],
);

/** What operators did outside the console (CLI grants with a tier, code batches, transfer confirmations). */
export const operatorActions = pgTable(
  "operator_actions",
  {
    id: text("id").primaryKey(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target"),
    details: jsonb("details").notNull().default(sql`'{}'::jsonb`),
    /** What the action changed, as it was and as it became (the audit log shows both). */
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: createdAt(),
  },
  (t) => [index("operator_actions_time_idx").on(t.createdAt)],
);

// ─── organization verification ───────────────────────────────────────────────────────────────────────────────

/**
 * Verification applications. `organizations.verification` is the organization's state; each row is
 * one application that moved it (personal: decided at once by the provider's checks; company: `pending` until
 * the provider or an operator decides). `details` holds what the applicant entered (personal: real name, ID
 * number and, on the global edition, nationality, birth date and document expiry; company: name, credit code and
 * bank fields). At most one pending company application per organization (partial unique index).
 */
export const orgVerifications = pgTable(
  "org_verifications",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["personal", "company"] }).notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected", "cancelled"] }).notNull(),
    details: jsonb("details").$type<Record<string, string>>().notNull(),
    /** The provider that decides (`builtin` | `http`) and its reference for the application. */
    provider: text("provider").notNull(),
    providerRef: text("provider_ref"),
    rejectReason: text("reject_reason"),
    /** The user who applied (the creator id on record). */
    createdBy: text("created_by").notNull(),
    decidedBy: text("decided_by"),
    decidedAt: ts("decided_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("org_verifications_org_idx").on(t.orgId, t.createdAt),
    uniqueIndex("org_verifications_pending_uq").on(t.orgId).where(sql`status = 'pending'`),
    index("org_verifications_pending_idx").on(t.createdAt).where(sql`status = 'pending'`),
  ],
);

// ─── refunds ───────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Refunds of recharged cash, one row per refunded payment. `requested` → (operator) `refunding` →
 * `refunded`; `requested` → `rejected` | `cancelled`; `refunding` → `failed` → (operator retry) `refunding`.
 * While a refund is open (requested or refunding) or done, its amount counts in `payments.refunded_amount`; the
 * cash leaves the balance when the operator approves (ledger kind `refund`, reference `refund:<id>:<attempt>`),
 * and comes back with a reversal when the provider refuses. See modules/refunds/README.md.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    amount: money("amount").notNull(),
    currency: text("currency", { enum: ["CNY", "USD"] }).notNull(),
    status: text("status", { enum: ["requested", "refunding", "refunded", "rejected", "failed", "cancelled"] })
      .notNull()
      .default("requested"),
    /** Approvals so far: each one debits the cash once, under its own ledger reference and provider idempotency key. */
    attempt: integer("attempt").notNull().default(0),
    reason: text("reason"),
    rejectReason: text("reject_reason"),
    failureReason: text("failure_reason"),
    /** The provider's refund id, or the operator's bank-transfer reference for a corporate transfer. */
    providerRef: text("provider_ref"),
    transferReference: text("transfer_reference"),
    requestedBy: text("requested_by").notNull(),
    /** Where the receipts go (with the organization's alert recipients), and their language. */
    email: text("email").notNull(),
    locale: text("locale").notNull(),
    decidedBy: text("decided_by"),
    createdAt: createdAt(),
    approvedAt: ts("approved_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("refunds_org_time_idx").on(t.orgId, t.createdAt),
    index("refunds_payment_idx").on(t.paymentId),
    index("refunds_open_idx").on(t.status, t.createdAt).where(sql`status in ('requested', 'refunding', 'failed')`),
  ],
);

// ─── playground ────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Saved playground sessions, private to the user who made them, per project. `state` is the
 * `PlaygroundSessionState` of contracts (mode, models, parameters, messages, tools): the same JSON as an export.
 */
export const playgroundSessions = pgTable(
  "playground_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    mode: text("mode").notNull(),
    state: jsonb("state").notNull(),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("playground_sessions_owner_idx").on(t.userId, t.projectId, t.updatedAt)],
);

/**
 * Custom function tools of the playground (apps/server/src/modules/tools): private to their author in
 * one project, like playground sessions. `parameters` and `example_input` are the JSON text the user typed (their
 * limits are in characters); the code runs only in the QuickJS sandbox (apps/server/src/tools/run-sandboxed.ts).
 */
export const functionTools = pgTable(
  "function_tools",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    parameters: text("parameters").notNull(),
    exampleInput: text("example_input").notNull(),
    code: text("code").notNull(),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("function_tools_owner_name_idx").on(t.userId, t.projectId, t.name)],
);

/**
 * MCP servers of the playground (apps/server/src/modules/tools/mcp-*): private to their author in one
 * project. `token_sealed` / `password_sealed` are AES-256-GCM sealed (tools/secret-box.ts), never returned.
 * `tools` is the list the last sync read ([{name, description, inputSchema}]); `status` connecting | connected |
 * error | disconnected with `last_error` (a message code and detail) and `last_connected_at`.
 */
export const mcpServers = pgTable(
  "mcp_servers",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    url: text("url").notNull(),
    transport: text("transport").notNull(),
    authType: text("auth_type").notNull(),
    username: text("username"),
    headerName: text("header_name"),
    tokenSealed: text("token_sealed"),
    passwordSealed: text("password_sealed"),
    timeoutMs: integer("timeout_ms").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    status: text("status").notNull().default("disconnected"),
    lastError: text("last_error"),
    lastConnectedAt: ts("last_connected_at"),
    tools: jsonb("tools").notNull().default([]),
    toolsSyncedAt: ts("tools_synced_at"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("mcp_servers_owner_idx").on(t.userId, t.projectId)],
);

/**
 * The official memory tool's notes (modules/tools/official): key → value per organization and project, written by
 * `POST /v1/formulas/moonshot/memory:latest/fibers` and the playground's tool loop.
 */
export const toolMemories = pgTable(
  "tool_memories",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: text("project_id").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.projectId, t.key] })],
);

// ─── files ─────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Files API (docs/api-compat.md §4; apps/server/src/modules/files). A row exists exactly when its blob was stored: the
 * upload streams to a temporary file, is checked (size, purpose, quotas under the organization's row lock) and
 * only then moved to the store and inserted with its extraction job. `status` goes `processing` → `ok` | `error`
 * (`status_details` says why); `content_key` names the extracted text in the store. `project_id` is the project
 * the file was uploaded for (an API key's; optional from the console); `uploaded_by` the console user, if any.
 */
export const files = pgTable(
  "files",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    projectId: text("project_id").references(() => projects.id),
    uploadedBy: text("uploaded_by").references(() => users.id),
    apiKeyId: text("api_key_id"),
    filename: text("filename").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    purpose: text("purpose", { enum: ["file-extract", "image", "video", "batch"] }).notNull(),
    status: text("status", { enum: ["processing", "ok", "error"] })
      .notNull()
      .default("processing"),
    statusDetails: text("status_details").notNull().default(""),
    blobKey: text("blob_key").notNull(),
    contentKey: text("content_key"),
    contentChars: integer("content_chars"),
    createdAt: createdAt(),
    processedAt: ts("processed_at"),
  },
  (t) => [index("files_org_created_idx").on(t.orgId, t.createdAt)],
);

// ─── context caching (docs/api-compat.md §7.1) ─────────────────────────────────────────────────────────────────

/**
 * Explicit context caches. `content_hash` identifies messages + tools for the exact-prefix match of a chat call.
 * A deleted cache keeps its row (`deleted_at`) so its bills and the console's spend figures stay explained.
 * Storage is billed per started minute while ready: `ready_at` starts the minute count of the current ready
 * period and `storage_minutes_billed` says how many of its minutes were billed (bill line ids derive from both,
 * so a retried run bills nothing twice).
 */
export const contextCaches = pgTable(
  "context_caches",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    projectId: text("project_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    model: text("model").notNull(),
    name: text("name"),
    description: text("description"),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    messages: jsonb("messages").$type<unknown[]>().notNull(),
    tools: jsonb("tools").$type<unknown[] | null>(),
    contentHash: text("content_hash").notNull(),
    tokens: integer("tokens").notNull(),
    status: text("status", { enum: ["pending", "ready", "error", "inactive"] })
      .notNull()
      .default("pending"),
    error: jsonb("error").$type<{ type: string; message: string } | null>(),
    expiredAt: ts("expired_at").notNull(),
    readyAt: ts("ready_at"),
    storageMinutesBilled: integer("storage_minutes_billed").notNull().default(0),
    creationBilled: boolean("creation_billed").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    index("context_caches_org_created_idx").on(t.orgId, t.createdAt, t.id),
    index("context_caches_status_idx").on(t.status),
  ],
);

/** Tags name a cache within an organization (`role: "cache"` messages use `tag=`). */
export const contextCacheTags = pgTable(
  "context_cache_tags",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    tag: text("tag").notNull(),
    cacheId: text("cache_id")
      .notNull()
      .references(() => contextCaches.id),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.tag] })],
);

/**
 * Contact-sales submissions (the public /contact-sales form). Kept for the back-office queue; the sales address
 * gets an e-mail for each. `userId`/`orgId` are set when a signed-in visitor sent it.
 */
export const salesLeads = pgTable(
  "sales_leads",
  {
    id: text("id").primaryKey(),
    topic: text("topic").notNull(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    company: text("company").notNull(),
    industry: text("industry").notNull(),
    stage: text("stage").notNull(),
    enterpriseCertified: boolean("enterprise_certified").notNull(),
    /** the organization id the visitor typed or, signed in, their current one */
    organizationId: text("organization_id"),
    tier5: boolean("tier5").notNull().default(false),
    expectedTpm: bigint("expected_tpm", { mode: "number" }),
    background: text("background").notNull(),
    problem: text("problem").notNull(),
    additionalInfo: text("additional_info"),
    locale: text("locale").notNull(),
    userId: text("user_id"),
    status: text("status", { enum: ["new", "in_progress", "resolved"] })
      .notNull()
      .default("new"),
    createdAt: createdAt(),
  },
  (t) => [index("sales_leads_status_time_idx").on(t.status, t.createdAt)],
);

/** Feedback sent from the console, with up to three images kept in the generated-files store. */
export const feedback = pgTable(
  "feedback",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    userId: text("user_id").notNull(),
    type: text("type").notNull(),
    model: text("model"),
    description: text("description").notNull(),
    contact: text("contact"),
    /** storage keys and content types of the images, in upload order */
    images: jsonb("images").$type<{ key: string; contentType: string; bytes: number }[]>().notNull().default([]),
    locale: text("locale").notNull(),
    status: text("status", { enum: ["new", "in_progress", "resolved"] })
      .notNull()
      .default("new"),
    repliedAt: ts("replied_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("feedback_org_time_idx").on(t.orgId, t.createdAt),
    index("feedback_status_time_idx").on(t.status, t.createdAt),
  ],
);

// ─── riddles ───────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Riddle challenges (apps/server/src/modules/riddles). The built-in catalog is inserted by id when
 * missing (never overwriting an operator's edit); operators add, edit, reorder and retire rows with the CLI.
 * `content` is `{en-US|zh-CN: {title, story, goal, system}}`, `rules` is `RiddleRules` of contracts, `reward` is
 * `{CNY, USD}` in nano-units as strings, `solutions` an operator's optional prompts that should solve it (never
 * sent to players; the built-in riddles store none).
 */
export const riddles = pgTable(
  "riddles",
  {
    id: text("id").primaryKey(),
    difficulty: text("difficulty", { enum: ["beginner", "easy", "medium", "hard", "expert"] }).notNull(),
    position: integer("position").notNull(),
    model: text("model").notNull(),
    maxTokens: integer("max_tokens").notNull(),
    responseFormat: text("response_format", { enum: ["text", "json_object"] }).notNull(),
    content: jsonb("content").notNull(),
    rules: jsonb("rules").notNull(),
    reward: jsonb("reward").notNull(),
    voucherDays: integer("voucher_days").notNull(),
    solutions: jsonb("solutions"),
    retiredAt: ts("retired_at"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("riddles_track_idx").on(t.difficulty, t.position)],
);

/**
 * One submission. `status` is `running` from the moment the quota slot is taken until the verdict (`judged`), or
 * `failed` when the run never produced a judged answer (engine error, client gone): failed attempts count for
 * nothing. `billed` false means it used the free daily quota.
 */
export const riddleAttempts = pgTable(
  "riddle_attempts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    riddleId: text("riddle_id")
      .notNull()
      .references(() => riddles.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    projectId: text("project_id").notNull(),
    requestId: text("request_id").notNull(),
    prompt: text("prompt").notNull(),
    answer: text("answer").notNull().default(""),
    status: text("status", { enum: ["running", "judged", "failed"] }).notNull(),
    passed: boolean("passed").notNull().default(false),
    checks: jsonb("checks").notNull().default(sql`'[]'::jsonb`),
    billed: boolean("billed").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("riddle_attempts_user_idx").on(t.userId, t.createdAt),
    index("riddle_attempts_riddle_idx").on(t.userId, t.riddleId, t.createdAt),
  ],
);

/** A player's first solve of a riddle, and its reward claim (once per player, into one organization). */
export const riddleSolves = pgTable(
  "riddle_solves",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    riddleId: text("riddle_id")
      .notNull()
      .references(() => riddles.id, { onDelete: "cascade" }),
    attemptId: text("attempt_id").notNull(),
    solvedAt: ts("solved_at").notNull(),
    claimedAt: ts("claimed_at"),
    claimOrgId: text("claim_org_id"),
    voucherId: text("voucher_id"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.riddleId] })],
);

// ─── invoices ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Saved invoice titles of an organization (cn). `invalid` titles stay listed (old invoices name them) but cannot
 * be used for a new application.
 */
export const invoiceTitles = pgTable(
  "invoice_titles",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    titleType: text("title_type", { enum: ["personal", "company"] }).notNull(),
    title: text("title").notNull(),
    uscc: text("uscc"),
    bankName: text("bank_name"),
    bankAccount: text("bank_account"),
    companyAddress: text("company_address"),
    companyPhone: text("company_phone"),
    status: text("status", { enum: ["normal", "invalid"] })
      .notNull()
      .default("normal"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("invoice_titles_org_idx").on(t.orgId, t.createdAt)],
);

/**
 * Invoices applied for over paid recharges (modules/invoices): cn VAT invoices, whose title is copied in at
 * application (a later edit of the saved title does not change an invoice), and the global edition's tax invoices
 * with GST, whose bill-to block is copied in. `amount` is the tax-inclusive gross; `net` and `tax` are computed once at application
 * (contracts `splitTax`) and never again. `status`: waiting → success | failed; waiting → invalid (withdrawn by the
 * applicant); success ⇄ refunding (a red-letter round, `red_letter_requests`) → refunded; imported (recorded by an
 * operator, issued outside the platform).
 */
export const invoices = pgTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    titleId: text("title_id"),
    method: text("method", { enum: ["electronic", "paper"] }).notNull(),
    titleType: text("title_type", { enum: ["personal", "company"] }).notNull(),
    invoiceType: text("invoice_type", { enum: ["general", "special"] }).notNull(),
    title: text("title").notNull(),
    uscc: text("uscc"),
    bankName: text("bank_name"),
    bankAccount: text("bank_account"),
    companyAddress: text("company_address"),
    companyPhone: text("company_phone"),
    email: text("email").notNull(),
    currency: text("currency", { enum: ["CNY", "USD"] }).notNull(),
    amount: money("amount").notNull(),
    net: money("net").notNull(),
    tax: money("tax").notNull(),
    /** basis points (900 = 9 %) */
    taxRateBp: integer("tax_rate_bp").notNull(),
    status: text("status", {
      enum: ["waiting", "success", "failed", "refunding", "refunded", "imported", "invalid"],
    })
      .notNull()
      .default("waiting"),
    invoiceNo: text("invoice_no"),
    failReason: text("fail_reason"),
    /** The issued PDF in the generated-files store (ctx.exportFiles). */
    pdfKey: text("pdf_key"),
    /**
     * global: the bill-to block (the organization's international invoice information, §3) as it was at
     * application; null for cn, whose buyer is the title above.
     */
    billTo: jsonb("bill_to").$type<Record<string, string | null>>(),
    /** The number of the document that voided it: the red-letter invoice (cn) or the credit note (global). */
    redInvoiceNo: text("red_invoice_no"),
    /** That document's PDF in the generated-files store. */
    voidPdfKey: text("void_pdf_key"),
    /** Language of the e-mails about this invoice (the applicant's). */
    locale: text("locale").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    issuedAt: ts("issued_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("invoices_org_time_idx").on(t.orgId, t.createdAt),
    index("invoices_status_time_idx").on(t.status, t.createdAt),
    uniqueIndex("invoices_invoice_no_uq").on(t.invoiceNo),
  ],
);

/** Which paid recharges an invoice covers, and how much of each (Σ amount = the invoice's amount). */
export const invoicePayments = pgTable(
  "invoice_payments",
  {
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    amount: money("amount").notNull(),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.paymentId] }), index("invoice_payments_payment_idx").on(t.paymentId)],
);

/**
 * Red-letter confirmation rounds of an issued invoice (§4 states 01–09). At most one open round (01–04) per
 * invoice (partial unique index); closed rounds stay as history.
 */
export const redLetterRequests = pgTable(
  "red_letter_requests",
  {
    id: text("id").primaryKey(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    /** seller = the platform (an operator), buyer = the organization */
    initiator: text("initiator", { enum: ["seller", "buyer"] }).notNull(),
    state: text("state", { enum: ["01", "02", "03", "04", "05", "06", "07", "08", "09"] }).notNull(),
    reason: text("reason").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    /** When 02/03 turn into 07 if the other side has not answered (72 hours after creation). */
    expiresAt: ts("expires_at").notNull(),
    confirmedAt: ts("confirmed_at"),
    closedAt: ts("closed_at"),
  },
  (t) => [
    index("red_letter_requests_invoice_idx").on(t.invoiceId, t.createdAt),
    uniqueIndex("red_letter_requests_open_uq").on(t.invoiceId).where(sql`state in ('01', '02', '03', '04')`),
    index("red_letter_requests_expiry_idx").on(t.expiresAt).where(sql`state in ('02', '03')`),
  ],
);

/**
 * International invoice information of a global organization (§3): the bill-to block of its invoices, required
 * before a card payment (§6). `order_invoices` copies it at payment time.
 */
export const invoiceInfos = pgTable("invoice_infos", {
  orgId: text("org_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  email: text("email").notNull(),
  taxId: text("tax_id"),
  street: text("street").notNull(),
  addressLine1: text("address_line1"),
  addressLine2: text("address_line2"),
  city: text("city").notNull(),
  state: text("state"),
  postalCode: text("postal_code").notNull(),
  countryCode: text("country_code").notNull(),
  updatedBy: text("updated_by").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/**
 * The invoice of a global card recharge: the bill-to block as it was when the order was made, and the GST split
 * computed once at the configured rate. The PDF can be downloaded once the payment succeeded.
 */
export const orderInvoices = pgTable("order_invoices", {
  paymentId: text("payment_id")
    .primaryKey()
    .references(() => payments.id, { onDelete: "cascade" }),
  orgId: text("org_id").notNull(),
  invoiceNo: text("invoice_no").notNull().unique(),
  billTo: jsonb("bill_to").$type<Record<string, string | null>>().notNull(),
  net: money("net").notNull(),
  tax: money("tax").notNull(),
  taxRateBp: integer("tax_rate_bp").notNull(),
  createdAt: createdAt(),
});

/**
 * What a completed refund did to a card order's invoice (one row per refund): a refund of the whole order voids
 * the invoice; a partial one issues a credit note with its own number for the refunded amount (GST split at the
 * invoice's rate). A refund the provider fails after reporting it done cancels its row: the invoice stands again.
 */
export const orderInvoiceCredits = pgTable(
  "order_invoice_credits",
  {
    refundId: text("refund_id").primaryKey(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => orderInvoices.paymentId, { onDelete: "cascade" }),
    orgId: text("org_id").notNull(),
    kind: text("kind", { enum: ["void", "credit_note"] }).notNull(),
    /** The credit note's number (CN-…); null for a void, which names the invoice itself. */
    creditNo: text("credit_no").unique(),
    amount: money("amount").notNull(),
    net: money("net").notNull(),
    tax: money("tax").notNull(),
    createdAt: ts("created_at").notNull(),
    cancelledAt: ts("cancelled_at"),
  },
  (t) => [index("order_invoice_credits_payment_idx").on(t.paymentId)],
);
