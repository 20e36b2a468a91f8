import { z } from "zod";
import { Currency, Edition } from "../edition.ts";
import { vmsg } from "../validation.ts";
import { Nanos, PageQuery, paged } from "./common.ts";
import { FeedbackItem, TICKET_STATUSES } from "./support.ts";

/** The back office's organization search: `q` matches the name (any case) or the exact id. */
export const AdminOrganizationsQuery = PageQuery.extend({ q: z.string().trim().max(100).default("") });
export type AdminOrganizationsQuery = z.input<typeof AdminOrganizationsQuery>;

export const AdminOrganizationRow = z.object({
  id: z.string(),
  name: z.string(),
  edition: Edition,
  currency: Currency,
  personal: z.boolean(),
  createdAt: z.string(),
  members: z.number().int(),
  /** Cash (may be negative), unexpired voucher remaining, and their sum. */
  balance: z.object({ cash: Nanos, voucher: Nanos, total: Nanos }),
  cumulativeRecharge: Nanos,
  tier: z.object({ tier: z.number().int(), name: z.string() }),
});
export type AdminOrganizationRow = z.infer<typeof AdminOrganizationRow>;

export const AdminOrganizationPage = paged(AdminOrganizationRow);
export type AdminOrganizationPage = z.infer<typeof AdminOrganizationPage>;

// ─── dashboard ───

export const AdminDashboardQuery = z.object({ days: z.coerce.number().int().min(7).max(90).default(30) });

export const AdminDashboardDay = z.object({
  date: z.string(),
  organizations: z.number().int(),
  users: z.number().int(),
  requests: z.number().int(),
  /** Per currency: cash recharged (successful payments) and consumption billed, in nano-units. */
  recharge: z.object({ CNY: Nanos, USD: Nanos }),
  consumption: z.object({ CNY: Nanos, USD: Nanos }),
});
export type AdminDashboardDay = z.infer<typeof AdminDashboardDay>;

export const AdminDashboard = z.object({
  /** Days of UTC, oldest first; the last is today (still moving). */
  days: z.array(AdminDashboardDay),
  totals: z.object({
    organizations: z.number().int(),
    users: z.number().int(),
    suspended: z.number().int(),
    pendingTransfers: z.number().int(),
    newLeads: z.number().int(),
    newFeedback: z.number().int(),
  }),
  topModels: z.array(z.object({ model: z.string(), requests: z.number().int(), tokens: z.number().int() })),
});
export type AdminDashboard = z.infer<typeof AdminDashboard>;

// ─── organizations ───

export const AdminOrgParams = z.object({ orgId: z.string().min(1).max(64) });

export const AdminOrganizationDetail = AdminOrganizationRow.extend({
  /** The operator's explicit tier (null: none); while set it is the tier. */
  tierOverride: z.number().int().nullable(),
  /** The floor set by redeemed voucher codes (null: none); recharges still raise the tier above it. */
  tierFloor: z.number().int().nullable(),
  rateLimitOverride: z
    .object({
      concurrency: z.number().int().optional(),
      rpm: z.number().int().optional(),
      tpm: z.number().int().optional(),
      tpd: z.number().int().nullable().optional(),
    })
    .nullable(),
  verification: z.string(),
  suspendedAt: z.string().nullable(),
  suspendReason: z.string().nullable(),
  members: z.number().int(),
  memberList: z.array(z.object({ userId: z.string(), username: z.string().nullable(), role: z.string() })),
  projects: z.array(z.object({ id: z.string(), name: z.string(), status: z.string() })),
  ledger: z.array(
    z.object({ id: z.string(), kind: z.string(), amount: Nanos, note: z.string().nullable(), createdAt: z.string() }),
  ),
});
export type AdminOrganizationDetail = z.infer<typeof AdminOrganizationDetail>;

/** A grant of cash (not a recharge: the tier does not move), with the reason the audit log keeps. */
export const AdminGrantRequest = z.object({
  amount: z
    .string({ error: vmsg("required") })
    .trim()
    // An empty amount is missing, not malformed: stop there so the field says "required".
    .min(1, { message: vmsg("required"), abort: true })
    .regex(/^\d{1,7}(\.\d{1,2})?$/, vmsg("money_format"))
    .refine((v) => Number(v) > 0, vmsg("money_format")),
  note: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(200, vmsg("too_long", { max: 200 })),
});
export type AdminGrantRequest = z.input<typeof AdminGrantRequest>;

const positive = z
  .number({ error: vmsg("integer") })
  .int(vmsg("integer"))
  .min(1, vmsg("range", { min: 1, max: 1e12 }));
/** Tier override (null: follow cumulative recharge) and limits above the tier (null: the tier's). */
export const AdminLimitsRequest = z.object({
  tierOverride: z
    .number({ error: vmsg("integer") })
    .int(vmsg("integer"))
    .min(0, vmsg("range", { min: 0, max: 5 }))
    .max(5, vmsg("range", { min: 0, max: 5 }))
    .nullable(),
  rateLimitOverride: z
    .object({
      concurrency: positive.optional(),
      rpm: positive.optional(),
      tpm: positive.optional(),
      tpd: positive.nullable().optional(),
    })
    .nullable(),
});
export type AdminLimitsRequest = z.input<typeof AdminLimitsRequest>;

export const AdminSuspendRequest = z.object({
  reason: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(200, vmsg("too_long", { max: 200 })),
});

// ─── users ───

export const AdminUsersQuery = PageQuery.extend({ q: z.string().trim().max(100).default("") });
export const AdminUserRow = z.object({
  id: z.string(),
  username: z.string().nullable(),
  phoneMasked: z.string().nullable(),
  role: z.enum(["user", "operator"]),
  createdAt: z.string(),
  disabledAt: z.string().nullable(),
  organizations: z.number().int(),
  activeSessions: z.number().int(),
});
export type AdminUserRow = z.infer<typeof AdminUserRow>;
export const AdminUserPage = paged(AdminUserRow);
export type AdminUserPage = z.infer<typeof AdminUserPage>;
export const AdminUserParams = z.object({ userId: z.string().min(1).max(64) });
export const AdminUserDetail = AdminUserRow.extend({
  memberships: z.array(z.object({ orgId: z.string(), name: z.string(), role: z.string() })),
  sessions: z.array(
    z.object({ id: z.string(), ip: z.string().nullable(), userAgent: z.string().nullable(), lastSeenAt: z.string() }),
  ),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetail>;

// ─── queues ───

export const AdminTicketQuery = PageQuery.extend({ status: z.enum(TICKET_STATUSES).optional() });
export const AdminTicketParams = z.object({ id: z.string().min(1).max(64) });
export const AdminTicketStatusRequest = z.object({ status: z.enum(TICKET_STATUSES, { error: vmsg("required") }) });

export const AdminLead = z.object({
  id: z.string(),
  topic: z.string(),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  company: z.string(),
  industry: z.string(),
  stage: z.string(),
  enterpriseCertified: z.boolean(),
  organizationId: z.string().nullable(),
  tier5: z.boolean(),
  expectedTpm: z.number().int().nullable(),
  background: z.string(),
  problem: z.string(),
  additionalInfo: z.string().nullable(),
  locale: z.string(),
  status: z.enum(TICKET_STATUSES),
  createdAt: z.string(),
});
export type AdminLead = z.infer<typeof AdminLead>;
export const AdminLeadPage = paged(AdminLead);

export const AdminFeedback = FeedbackItem.extend({
  orgId: z.string(),
  orgName: z.string(),
  locale: z.string(),
  imageUrls: z.array(z.string()),
});
export type AdminFeedback = z.infer<typeof AdminFeedback>;
export const AdminFeedbackPage = paged(AdminFeedback);

/** An e-mail answer to feedback: sent to its contact when that is an address. */
export const AdminReplyRequest = z.object({
  message: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(4000, vmsg("too_long", { max: 4000 })),
});

export const AdminTransfer = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  amount: Nanos,
  currency: Currency,
  reference: z.string().nullable(),
  createdAt: z.string(),
});
export const AdminTransferPage = paged(AdminTransfer);

// ─── audit log ───

export const AdminAuditQuery = PageQuery.extend({
  q: z.string().trim().max(100).default(""),
  format: z.enum(["json", "csv"]).default("json"),
});
export const AdminAuditEntry = z.object({
  id: z.string(),
  actor: z.string(),
  actorName: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  details: z.unknown(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AdminAuditEntry = z.infer<typeof AdminAuditEntry>;
export const AdminAuditPage = paged(AdminAuditEntry);

// ─── redemption code batches ───

export const VOUCHER_TYPES = ["activity", "recharge", "register", "kimiVIP", "other"] as const;

export const AdminCodeBatchRequest = z.object({
  edition: Edition,
  count: z
    .number({ error: vmsg("integer") })
    .int(vmsg("integer"))
    .min(1, vmsg("range", { min: 1, max: 5000 }))
    .max(5000, vmsg("range", { min: 1, max: 5000 })),
  amount: z
    .string({ error: vmsg("required") })
    .trim()
    .regex(/^\d{1,7}(\.\d{1,2})?$/, vmsg("money_format"))
    .refine((v) => Number(v) > 0, vmsg("money_format")),
  voucherType: z.enum(VOUCHER_TYPES, { error: vmsg("required") }),
  voucherDays: z
    .number({ error: vmsg("integer") })
    .int(vmsg("integer"))
    .min(1, vmsg("range", { min: 1, max: 3650 }))
    .max(3650, vmsg("range", { min: 1, max: 3650 })),
  validDays: z
    .number({ error: vmsg("integer") })
    .int(vmsg("integer"))
    .min(1, vmsg("range", { min: 1, max: 3650 }))
    .max(3650, vmsg("range", { min: 1, max: 3650 })),
  minTier: z
    .number({ error: vmsg("integer") })
    .int(vmsg("integer"))
    .min(0, vmsg("range", { min: 0, max: 5 }))
    .max(5, vmsg("range", { min: 0, max: 5 }))
    .nullable(),
});
export type AdminCodeBatchRequest = z.input<typeof AdminCodeBatchRequest>;

export const AdminCodeBatch = z.object({
  batchId: z.string(),
  edition: Edition,
  amount: Nanos,
  voucherType: z.enum(VOUCHER_TYPES),
  minTier: z.number().int().nullable(),
  count: z.number().int(),
  redeemed: z.number().int(),
  /** Codes neither redeemed nor expired (a revoked batch has none). */
  usable: z.number().int(),
  expiresAt: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
});
export type AdminCodeBatch = z.infer<typeof AdminCodeBatch>;
export const AdminCodeBatchPage = paged(AdminCodeBatch);
/** The codes of a new batch: shown this once, never stored in the clear. */
export const AdminCodeBatchCreated = z.object({ batch: AdminCodeBatch, codes: z.array(z.string()) });
export const AdminBatchParams = z.object({ batchId: z.string().min(1).max(64) });

// ─── catalog ───

const PriceRow = z.object({ input: z.string(), output: z.string(), cacheHit: z.string().nullable() });
export const AdminCatalog = z.object({
  models: z.array(
    z.object({
      id: z.string(),
      family: z.string(),
      contextWindow: z.number().int(),
      listed: z.boolean(),
      prices: z.object({ CNY: PriceRow, USD: PriceRow }),
      /** The upstream that serves it ("*": the fallback) or "simulator" (the built-in engine). */
      servedBy: z.string(),
    }),
  ),
  upstreams: z.array(
    z.object({
      model: z.string(),
      baseUrl: z.string(),
      requests: z.number().int(),
      errors: z.number().int(),
      lastOkAt: z.string().nullable(),
      lastErrorAt: z.string().nullable(),
      lastError: z.string().nullable(),
      latencyMs: z.number().nullable(),
    }),
  ),
});
export type AdminCatalog = z.infer<typeof AdminCatalog>;

// ─── riddles ───

export const AdminRiddleRow = z.object({
  id: z.string(),
  difficulty: z.string(),
  position: z.number().int(),
  model: z.string(),
  title: z.object({ "en-US": z.string(), "zh-CN": z.string() }),
  reward: z.object({ CNY: z.string(), USD: z.string() }),
  retired: z.boolean(),
  solves: z.number().int(),
  attempts: z.number().int(),
});
export type AdminRiddleRow = z.infer<typeof AdminRiddleRow>;
export const AdminRiddleList = z.object({ items: z.array(AdminRiddleRow) });
export const AdminRiddleParams = z.object({ riddleId: z.string().min(1).max(64) });
/** A whole riddle definition (add) or a partial one merged over the current (edit): checked by the server. */
export const AdminRiddleDefinitionBody = z.object({ definition: z.record(z.string(), z.unknown()) });
export const AdminRiddleMoveRequest = z.object({
  position: z
    .number({ error: vmsg("integer") })
    .int(vmsg("integer"))
    .min(1, vmsg("integer")),
});

// ─── verification applications ───

export const AdminVerification = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  edition: Edition,
  kind: z.enum(["personal", "company"]),
  /** In full: the operator checks them against the documents. */
  details: z.record(z.string(), z.string()),
  createdAt: z.string(),
});
export type AdminVerification = z.infer<typeof AdminVerification>;
export const AdminVerificationList = z.object({ items: z.array(AdminVerification) });
