import type { Payment } from "@moonport/contracts";
import type { schema } from "@moonport/db";
import type { AppContext } from "../../context.ts";
import { checkoutLink, SANDBOX } from "./sandbox-psp.ts";

type Row = typeof schema.payments.$inferSelect;

/** A payment as the console shows it; where to pay only while it waits. */
export function toPayment(
  ctx: Pick<AppContext, "config">,
  p: Row,
  card: { brand: string; last4: string } | null,
): Payment {
  const waiting = p.status === "waiting";
  const hosted = waiting && (p.payType === "wxpay" || p.payType === "alipay" || p.payType === "unionpay");
  // What the provider issued (Alipay qr_code, WeChat code_url); the sandbox's signed link is derived instead.
  const link = !hosted
    ? null
    : p.providerCheckout
      ? p.providerCheckout
      : p.provider !== SANDBOX || !ctx.config.payments.sandboxAllowed
        ? null
        : checkoutLink(ctx.config.payments.sandboxSecret, {
            paymentId: p.id,
            amount: p.amount.toString(),
            currency: p.currency,
            payType: p.payType,
          });
  const t = ctx.config.payments.transfer[p.currency === "CNY" ? "cn" : "global"];
  return {
    id: p.id,
    amount: p.amount.toString(),
    currency: p.currency,
    paymentType: p.payType,
    status: p.status,
    createdAt: p.createdAt.toISOString(),
    finishedAt: p.finishedAt?.toISOString() ?? null,
    failureReason: p.failureReason,
    checkoutUrl: p.payType === "unionpay" ? link : null,
    qrContent: p.payType === "wxpay" || p.payType === "alipay" ? link : null,
    transfer:
      p.payType === "b2btransfer" && p.transferReference
        ? { accountName: t.accountName, bank: t.bank, accountNumber: t.accountNumber, reference: p.transferReference }
        : null,
    card,
    refundedAmount: p.refundedAmount.toString(),
    test: p.provider === SANDBOX,
  };
}
