import type { Refund } from "@moonport/contracts";
import { schema } from "@moonport/db";

export type RefundRow = typeof schema.refunds.$inferSelect;
export type PaymentRow = typeof schema.payments.$inferSelect;

/** The columns a refund list reads: the refund and what the payer recognises of its payment. */
export const refundColumns = {
  refund: schema.refunds,
  paymentType: schema.payments.payType,
  paymentCreatedAt: schema.payments.createdAt,
};

export function toRefund(r: { refund: RefundRow; paymentType: PaymentRow["payType"]; paymentCreatedAt: Date }): Refund {
  const x = r.refund;
  return {
    id: x.id,
    paymentId: x.paymentId,
    paymentType: r.paymentType,
    paymentCreatedAt: r.paymentCreatedAt.toISOString(),
    amount: x.amount.toString(),
    currency: x.currency,
    status: x.status,
    reason: x.reason,
    rejectReason: x.rejectReason,
    failureReason: x.failureReason,
    transferReference: x.transferReference,
    requestedBy: x.requestedBy,
    createdAt: x.createdAt.toISOString(),
    finishedAt: x.finishedAt?.toISOString() ?? null,
  };
}

/** What is left to refund of a payment: amount − invoiced (not voided) − refunded or in an open refund. */
export function refundableOf(p: Pick<PaymentRow, "amount" | "invoicedAmount" | "refundedAmount">): bigint {
  const left = p.amount - p.invoicedAmount - p.refundedAmount;
  return left > 0n ? left : 0n;
}
