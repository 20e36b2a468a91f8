import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { type SettleOutcome, settlePayment } from "../billing/settle-payment.ts";
import { SANDBOX, verifyNotification } from "./sandbox-psp.ts";

/**
 * A provider's asynchronous notification: verified over the raw body first (a bad signature changes nothing and
 * answers 400, so a real PSP keeps retrying a misconfigured endpoint), then applied exactly once by the billing
 * core, keyed by the provider's event id.
 */
export async function receiveNotification(opts: {
  ctx: AppContext;
  provider: string;
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
}): Promise<SettleOutcome> {
  const { ctx } = opts;
  if (opts.provider !== SANDBOX) throw new AppError("not_found");
  const header = opts.headers["x-sandbox-signature"];
  const n = verifyNotification(
    ctx.config.payments.sandboxSecret,
    opts.rawBody,
    typeof header === "string" ? header : undefined,
  );
  if (!n) {
    ctx.log.warn({ provider: opts.provider }, "payment notification with a bad signature refused");
    throw new AppError("bad_request", { params: { reason: "invalid signature" } });
  }
  let amount: bigint | undefined;
  try {
    amount = BigInt(n.data.amount);
  } catch {
    throw new AppError("bad_request", { params: { reason: "invalid amount" } });
  }
  return settlePayment({
    ctx,
    provider: SANDBOX,
    eventId: n.id,
    paymentId: n.data.paymentId,
    verdict: n.type === "payment.succeeded" ? "paid" : "failed",
    amount,
    reason: n.data.reason,
    now: ctx.clock.now(),
  });
}
