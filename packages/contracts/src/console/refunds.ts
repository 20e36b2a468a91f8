import { z } from "zod";
import { Currency } from "../edition.ts";
import { vmsg } from "../validation.ts";
import { PayType } from "./billing.ts";
import { AlertEmail } from "./bills.ts";
import { Nanos, PageQuery, paged } from "./common.ts";

/**
 * Refunds of unused cash. An organization admin asks for paid recharges to be refunded, each by an
 * amount up to what is still refundable (amount − invoiced − refunded), the total within the cash balance
 * (vouchers are never refunded); an operator approves, the provider refunds. States (per refunded payment):
 * requested → refunding → refunded; requested → rejected | cancelled; refunding → failed → (operator retries)
 * refunding.
 */
export const REFUND_STATUSES = ["requested", "refunding", "refunded", "rejected", "failed", "cancelled"] as const;
export const RefundStatus = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof RefundStatus>;

/** A refund amount: a positive decimal with at most 2 decimals (providers refund in cents / fen). */
export const RefundAmount = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .regex(/^\d{1,7}(\.\d{1,2})?$/, vmsg("money_format"))
  .refine((v) => /[1-9]/.test(v), vmsg("positive_amount"));

export const RefundItem = z.object({ paymentId: z.string().min(1).max(64), amount: RefundAmount });
export type RefundItem = z.infer<typeof RefundItem>;

export const CreateRefundRequest = z.object({
  items: z
    .array(RefundItem)
    .min(1, vmsg("refund_pick_payment"))
    .max(20, vmsg("too_many", { max: 20 }))
    .refine((items) => new Set(items.map((i) => i.paymentId)).size === items.length, vmsg("refund_duplicate")),
  reason: z
    .string()
    .trim()
    .max(200, vmsg("too_long", { max: 200 }))
    .optional(),
  /** Where the receipts go (the organization's alert recipients get them too). */
  email: AlertEmail,
});
export type CreateRefundRequest = z.infer<typeof CreateRefundRequest>;

export const Refund = z.object({
  id: z.string(),
  paymentId: z.string(),
  paymentType: PayType,
  paymentCreatedAt: z.string(),
  amount: Nanos,
  currency: Currency,
  status: RefundStatus,
  reason: z.string().nullable(),
  rejectReason: z.string().nullable(),
  /** Why the provider refused or could not be reached (shown as "Refund failed: {reason}"). */
  failureReason: z.string().nullable(),
  /** Corporate transfers are refunded by bank transfer: the operator's reference of it. */
  transferReference: z.string().nullable(),
  requestedBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Refund = z.infer<typeof Refund>;

export const RefundListQuery = PageQuery.extend({ status: RefundStatus.optional() });
export const RefundPage = paged(Refund);
export type RefundPage = z.infer<typeof RefundPage>;
export const RefundParams = z.object({ orgId: z.string().min(1).max(64), refundId: z.string().min(1).max(64) });
export const CreateRefundResponse = z.object({ items: z.array(Refund) });

/** A paid recharge and how much of it can still be refunded. */
export const RefundablePayment = z.object({
  id: z.string(),
  paymentType: PayType,
  createdAt: z.string(),
  amount: Nanos,
  /** Held by invoices that are not voided: void them first to refund this part. */
  invoicedAmount: Nanos,
  /** Refunded or in an open refund. */
  refundedAmount: Nanos,
  refundable: Nanos,
});
export type RefundablePayment = z.infer<typeof RefundablePayment>;

export const RefundOptions = z.object({
  currency: Currency,
  cash: Nanos,
  /** Cash already asked for by refunds waiting for an operator. */
  requested: Nanos,
  /** What new refunds may add up to: cash − requested (never below 0). Vouchers are never refunded. */
  available: Nanos,
  payments: z.array(RefundablePayment),
});
export type RefundOptions = z.infer<typeof RefundOptions>;

// ─── operator ─────────────────────────────────────────────────────────────────────────────────────────────────

export const AdminRefund = Refund.extend({
  orgId: z.string(),
  orgName: z.string(),
  provider: z.string(),
  /** Paid back by hand (corporate transfer, or a provider without a refund API): the operator marks it done. */
  manual: z.boolean(),
  attempt: z.number().int(),
});
export type AdminRefund = z.infer<typeof AdminRefund>;
export const AdminRefundQuery = z.object({ status: RefundStatus.optional() });
export const AdminRefundList = z.object({ items: z.array(AdminRefund) });
export const AdminRefundParams = z.object({ refundId: z.string().min(1).max(64) });
export const RejectRefundRequest = z.object({
  reason: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(200, vmsg("too_long", { max: 200 })),
});
export const CompleteTransferRefundRequest = z.object({
  reference: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(64, vmsg("too_long", { max: 64 })),
});
