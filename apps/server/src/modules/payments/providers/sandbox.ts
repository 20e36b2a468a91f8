import type { AppContext } from "../../../context.ts";
import {
  queueSandboxNotification,
  readCardToken,
  SANDBOX,
  SANDBOX_PREFIX,
  SIGNATURE_HEADER,
  verifyNotification,
} from "../sandbox-psp.ts";
import { header, type PaymentProvider } from "./provider.ts";

/** The built-in sandbox PSP (sandbox-psp.ts) behind the provider interface. */
export function sandboxProvider(ctx: Pick<AppContext, "jobs" | "config" | "clock">): PaymentProvider {
  const secret = ctx.config.payments.sandboxSecret;
  // buildApp loads the kept secret before anything is served; signing with "" would accept forged tokens.
  if (!secret) throw new Error("the sandbox secret is not loaded");
  return {
    name: SANDBOX,
    acknowledgement: { status: 200, contentType: "application/json", body: '{"received":true}' },
    cardClient: { name: SANDBOX, tokenizeUrl: `${SANDBOX_PREFIX}/v1/tokens`, publishableKey: null },
    // The checkout link is derived from the order and signed (payment-view.ts), so nothing is stored.
    async openOrder(payment) {
      return { providerRef: `sbx_${payment.id}`, checkout: null };
    },
    async saveCard(token) {
      const card = readCardToken(secret, token);
      if (!card) return null;
      return { token, customerRef: null, ...card };
    },
    async chargeCard(payment, card) {
      const behaviour = readCardToken(secret, card.token)?.behaviour ?? "decline";
      if (behaviour === "decline") return "declined";
      if (behaviour === "retry") return "retry";
      await queueSandboxNotification(ctx, {
        type: "payment.succeeded",
        data: { paymentId: payment.id, amount: payment.amount.toString() },
      });
      return "pending";
    },
    // Stateless like the rest of the sandbox: the refund id derives from the idempotency key, so asking again
    // answers the same refund.
    async refund(_payment, order, card) {
      const behaviour = card ? readCardToken(secret, card.token)?.behaviour : undefined;
      if (behaviour === "refund_fail") return { status: "refused", reason: "the card issuer declined the refund" };
      return { status: "refunded", providerRef: `sbx_re_${order.idempotencyKey}` };
    },
    async verifyNotification(req) {
      const n = verifyNotification(secret, req.rawBody, header(req.headers, SIGNATURE_HEADER));
      if (!n) return null;
      let amount: bigint;
      try {
        amount = BigInt(n.data.amount);
      } catch {
        return null;
      }
      return {
        eventId: n.id,
        paymentId: n.data.paymentId,
        verdict: n.type === "payment.succeeded" ? "paid" : "failed",
        amount,
        reason: n.data.reason,
      };
    },
  };
}
