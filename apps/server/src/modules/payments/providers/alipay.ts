/**
 * Alipay adapter (`alipay-sdk`, RSA2). A recharge is a face-to-face precreate (`alipay.trade.precreate`): Alipay
 * answers a `qr_code` the console shows for the payer to scan; the SDK signs the request with our private key and
 * checks the response's signature with Alipay's public key. Alipay then POSTs a form-encoded asynchronous notify to
 * `<PAYMENT_NOTIFY_BASE_URL>/webhooks/payments/alipay`, verified with `checkNotifySign` before anything is read; it
 * expects the plain text `success`, otherwise it retries.
 */

import { parseMoney } from "@moonport/contracts";
import { AlipaySdk } from "alipay-sdk";
import type { AppContext } from "../../../context.ts";
import { type PaymentProvider, pem } from "./provider.ts";

export const ALIPAY = "alipay";

function formatYuan(amount: bigint): string {
  const cents = amount / 10_000_000n;
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}

export function alipayProvider(ctx: Pick<AppContext, "config">): PaymentProvider {
  const cfg = ctx.config.payments.alipay!;
  const sdk = new AlipaySdk({
    appId: cfg.appId,
    privateKey: pem(cfg.privateKey, "PRIVATE KEY"),
    alipayPublicKey: pem(cfg.alipayPublicKey, "PUBLIC KEY"),
    gateway: cfg.gateway,
    signType: "RSA2",
    keyType: "PKCS8",
    camelcase: false,
    timeout: 20_000,
  });
  const notifyUrl = `${ctx.config.payments.notifyBaseUrl}/webhooks/payments/${ALIPAY}`;
  return {
    name: ALIPAY,
    acknowledgement: { status: 200, contentType: "text/plain; charset=utf-8", body: "success" },
    async openOrder(payment) {
      const result = (await sdk.exec(
        "alipay.trade.precreate",
        {
          notify_url: notifyUrl,
          bizContent: {
            out_trade_no: payment.id,
            total_amount: formatYuan(payment.amount),
            subject: "Moonport recharge",
            timeout_express: "1d",
          },
        },
        { validateSign: true },
      )) as { code?: string; sub_code?: string; qr_code?: string };
      if (result.code !== "10000" || !result.qr_code) {
        throw new Error(`alipay precreate refused: ${result.code ?? "?"} ${result.sub_code ?? ""}`.trim());
      }
      return { providerRef: payment.id, checkout: result.qr_code };
    },
    // alipay.trade.refund: `out_request_no` is Alipay's idempotency key for a partial refund (asked again, it
    // answers the same refund). A business refusal (code 40004, not a system error) is final.
    async refund(payment, order) {
      const result = (await sdk.exec(
        "alipay.trade.refund",
        {
          bizContent: {
            out_trade_no: payment.id,
            refund_amount: formatYuan(order.amount),
            out_request_no: order.idempotencyKey,
          },
        },
        { validateSign: true },
      )) as { code?: string; sub_code?: string; sub_msg?: string; trade_no?: string };
      if (result.code === "10000")
        return { status: "refunded", providerRef: `${result.trade_no}:${order.idempotencyKey}` };
      if (result.code === "40004" && result.sub_code !== "ACQ.SYSTEM_ERROR") {
        return { status: "refused", reason: result.sub_code ?? "refund refused" };
      }
      throw new Error(`alipay refund not answered: ${result.code ?? "?"} ${result.sub_code ?? ""}`.trim());
    },
    async verifyNotification(req) {
      const form = Object.fromEntries(new URLSearchParams(req.rawBody));
      if (!form.sign || !sdk.checkNotifySignV2(form)) return null;
      if (form.app_id !== cfg.appId || !form.out_trade_no || !form.trade_no) return null;
      const status = form.trade_status;
      const paid = status === "TRADE_SUCCESS" || status === "TRADE_FINISHED";
      if (!paid && status !== "TRADE_CLOSED") return "irrelevant";
      let amount: bigint | undefined;
      try {
        amount = form.total_amount ? parseMoney(form.total_amount) : undefined;
      } catch {
        return null;
      }
      return {
        // One credit per Alipay trade, whatever notify ids its retries carry.
        eventId: `${form.trade_no}:${paid ? "paid" : "closed"}`,
        paymentId: form.out_trade_no,
        verdict: paid ? "paid" : "failed",
        amount,
        reason: paid ? undefined : "closed",
      };
    },
  };
}
