import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { type SettleOutcome, settlePayment } from "../billing/index.ts";
import { settleRefundNotification } from "../refunds/index.ts";
import { providerNamed } from "./providers/index.ts";
import type { Acknowledgement } from "./providers/provider.ts";

/**
 * A provider's asynchronous notification: authenticated by the provider's adapter over the raw body first (a bad
 * signature changes nothing and answers 400, so a real PSP keeps retrying a misconfigured endpoint), then applied
 * exactly once by the billing core, keyed by the provider's event or transaction id. Answers the outcome and the
 * acknowledgement that provider expects (Alipay: `success`; WeChat Pay: `{"code":"SUCCESS"}`). A refund's
 * notification (Stripe's `charge.refund.updated`) settles a pending refund instead (refunds/manage-refund.ts).
 */
export async function receiveNotification(opts: {
  ctx: AppContext;
  provider: string;
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
}): Promise<{ outcome: SettleOutcome | "refund_settled"; ack: Acknowledgement }> {
  const { ctx } = opts;
  const provider = providerNamed(ctx, opts.provider);
  if (!provider) throw new AppError("not_found");
  const now = ctx.clock.now();
  const n = await provider.verifyNotification({ rawBody: opts.rawBody, headers: opts.headers, now });
  if (!n) {
    ctx.log.warn({ provider: provider.name }, "payment notification with a bad signature refused");
    throw new AppError("bad_request", { params: { reason: "invalid signature" } });
  }
  if (n === "irrelevant") return { outcome: "ignored", ack: provider.acknowledgement };
  if ("kind" in n) {
    const settled = await settleRefundNotification(ctx, n);
    return { outcome: settled === "settled" ? "refund_settled" : "ignored", ack: provider.acknowledgement };
  }
  const outcome = await settlePayment({
    ctx,
    provider: provider.name,
    eventId: n.eventId,
    paymentId: n.paymentId,
    verdict: n.verdict,
    amount: n.amount,
    reason: n.reason,
    providerRef: n.providerRef,
    now,
  });
  return { outcome, ack: provider.acknowledgement };
}
