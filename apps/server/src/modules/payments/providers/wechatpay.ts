/**
 * WeChat Pay API v3 adapter (`wechatpay-node-v3`). A recharge is a Native order (`/v3/pay/transactions/native`,
 * request signed SHA256-RSA2048 with the merchant key by the SDK): WeChat answers a `code_url` shown as a QR code.
 * The notification to `<PAYMENT_NOTIFY_BASE_URL>/webhooks/payments/wechatpay` is verified by the SDK's `verifySign`
 * (Wechatpay-Timestamp/-Nonce/-Signature/-Serial headers over the raw body) against the WeChat Pay public key,
 * refused when older than 5 minutes, and its resource is decrypted with the APIv3 key (AES-256-GCM, tag checked).
 *
 * The SDK hard-codes api.mch.weixin.qq.com and signs the path only; its pluggable HTTP service sends the same
 * signed request to WECHATPAY_API_URL instead (a local fake in tests).
 */
import { createDecipheriv } from "node:crypto";
import Pay from "wechatpay-node-v3";
import type { AppContext } from "../../../context.ts";
import { header, NANO_PER_MINOR, type PaymentProvider, pem, type RefundOutcome, toMinor } from "./provider.ts";

export const WECHATPAY = "wechatpay";
const SDK_HOST = "https://api.mch.weixin.qq.com";
const MAX_SKEW_S = 300;

type Output = Awaited<ReturnType<Pay["transactions_native"]>>;

/** `Pay.certificates` (serial → public key) is where the SDK's verifySign looks; public-key mode fills it. */
class MoonportPay extends Pay {
  static trustPlatformKey(id: string, publicKeyPem: string) {
    Pay.certificates[id] = publicKeyPem;
  }
}

function httpService(apiUrl: string) {
  const send = async (method: "GET" | "POST", url: string, headers: Record<string, string>, body?: object) => {
    const res = await fetch(url.replace(SDK_HOST, apiUrl), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : {};
    } catch {}
    return (res.ok ? { status: res.status, data } : { status: res.status, error: text, errRaw: data }) as Output;
  };
  return {
    post: (url: string, params: Record<string, unknown>, headers: Record<string, string>) =>
      send("POST", url, headers, params),
    get: (url: string, headers: Record<string, string>) => send("GET", url, headers),
    upload: async (): Promise<Output> => ({ status: 501, error: "not supported" }),
  };
}

interface WechatResource {
  out_trade_no: string;
  transaction_id: string;
  trade_state: string;
  mchid: string;
  appid: string;
  amount?: { total?: number; currency?: string };
}

/**
 * AEAD_AES_256_GCM with the APIv3 key. Not the SDK's `decipher_gcm`: it never calls `final()`, so it does not check
 * the authentication tag and would accept a forged ciphertext. Here a wrong tag throws (→ refused).
 */
function decryptResource(r: { ciphertext: string; associated_data: string; nonce: string }, key: string) {
  const data = Buffer.from(r.ciphertext, "base64");
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(key), Buffer.from(r.nonce));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(r.associated_data ?? ""));
  const text = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString();
  return JSON.parse(text) as WechatResource;
}

interface WechatRefund {
  refund_id?: string;
  status?: string;
}

/**
 * SUCCESS is refunded; PROCESSING is on its way (pending: polled until it settles); CLOSED and ABNORMAL (the
 * payer's account cannot take it back) are refusals.
 */
function wechatRefundOutcome(data: { refund_id: string; status?: string }): RefundOutcome {
  if (data.status === "SUCCESS") return { status: "refunded", providerRef: data.refund_id };
  if (data.status === "CLOSED" || data.status === "ABNORMAL") return { status: "refused", reason: data.status };
  return { status: "pending", providerRef: data.refund_id };
}

export function wechatpayProvider(ctx: Pick<AppContext, "config">): PaymentProvider {
  const cfg = ctx.config.payments.wechatpay!;
  const pay = new MoonportPay({
    appid: cfg.appId,
    mchid: cfg.mchId,
    serial_no: cfg.mchSerial,
    // Only read for the serial number, which we give; the SDK insists on a value.
    publicKey: Buffer.from(pem(cfg.publicKey, "PUBLIC KEY")),
    privateKey: Buffer.from(pem(cfg.privateKey, "PRIVATE KEY")),
    key: cfg.apiV3Key,
  });
  pay.createHttp(httpService(cfg.apiUrl));
  MoonportPay.trustPlatformKey(cfg.publicKeyId, pem(cfg.publicKey, "PUBLIC KEY"));
  const notifyUrl = `${ctx.config.payments.notifyBaseUrl}/webhooks/payments/${WECHATPAY}`;
  return {
    name: WECHATPAY,
    acknowledgement: { status: 200, contentType: "application/json", body: '{"code":"SUCCESS","message":"OK"}' },
    async openOrder(payment) {
      const out = await pay.transactions_native({
        description: "Moonport recharge",
        out_trade_no: payment.id,
        notify_url: notifyUrl,
        amount: { total: toMinor(payment.amount), currency: "CNY" },
      });
      const codeUrl = (out.data as { code_url?: string } | undefined)?.code_url;
      if (out.status !== 200 || !codeUrl) throw new Error(`wechatpay native order refused: HTTP ${out.status}`);
      return { providerRef: payment.id, checkout: codeUrl };
    },
    // Domestic refund (APIv3, signed by the SDK): `out_refund_no` is WeChat Pay's idempotency key (asked again,
    // it answers the same refund). SUCCESS is done, PROCESSING pending (polled by refundStatus); a 4xx
    // other than SYSTEM_ERROR / FREQUENCY_LIMITED is a final refusal; anything else is retried.
    async refund(payment, order) {
      const out = await pay.refunds({
        out_trade_no: payment.id,
        out_refund_no: order.idempotencyKey,
        amount: { refund: toMinor(order.amount), total: toMinor(payment.amount), currency: "CNY" },
      });
      const data = out.data as WechatRefund | undefined;
      if (out.status === 200 && data?.refund_id)
        return wechatRefundOutcome({ refund_id: data.refund_id, status: data.status });
      const code = (out as { errRaw?: { code?: string } }).errRaw?.code;
      if (out.status >= 400 && out.status < 500 && code !== "SYSTEM_ERROR" && code !== "FREQUENCY_LIMITED") {
        return { status: "refused", reason: code ?? `HTTP ${out.status}` };
      }
      throw new Error(`wechatpay refund not answered: HTTP ${out.status}`);
    },
    // GET /v3/refund/domestic/refunds/{out_refund_no}: where a PROCESSING refund stands (the poll job's question).
    async refundStatus(_payment, { idempotencyKey }) {
      const out = await pay.find_refunds(idempotencyKey);
      const data = out.data as WechatRefund | undefined;
      if (out.status === 200 && data?.refund_id)
        return wechatRefundOutcome({ refund_id: data.refund_id, status: data.status });
      throw new Error(`wechatpay refund query not answered: HTTP ${out.status}`);
    },
    async verifyNotification(req) {
      const timestamp = header(req.headers, "wechatpay-timestamp");
      const nonce = header(req.headers, "wechatpay-nonce");
      const signature = header(req.headers, "wechatpay-signature");
      const serial = header(req.headers, "wechatpay-serial");
      if (!timestamp || !nonce || !signature || serial !== cfg.publicKeyId) return null;
      if (Math.abs(req.now.getTime() / 1000 - Number(timestamp)) > MAX_SKEW_S) return null;
      const ok = await pay
        .verifySign({ timestamp, nonce, body: req.rawBody, serial, signature, apiSecret: cfg.apiV3Key })
        .catch(() => false);
      if (!ok) return null;
      let resource: WechatResource;
      try {
        const n = JSON.parse(req.rawBody) as {
          event_type?: string;
          resource?: { ciphertext: string; associated_data: string; nonce: string };
        };
        if (!n.resource) return null;
        if (n.event_type !== "TRANSACTION.SUCCESS") return "irrelevant";
        resource = decryptResource(n.resource, cfg.apiV3Key);
      } catch {
        return null;
      }
      if (resource.mchid !== cfg.mchId || !resource.out_trade_no || !resource.transaction_id) return null;
      if (resource.trade_state !== "SUCCESS") return "irrelevant";
      return {
        eventId: `${resource.transaction_id}:SUCCESS`,
        paymentId: resource.out_trade_no,
        verdict: "paid",
        amount: resource.amount?.total !== undefined ? BigInt(resource.amount.total) * NANO_PER_MINOR : undefined,
      };
    },
  };
}
