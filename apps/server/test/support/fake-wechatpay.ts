/**
 * A local fake of WeChat Pay API v3, for the WeChat Pay adapter's tests. It verifies our request's
 * `Authorization: WECHATPAY2-SHA256-RSA2048 mchid=…,nonce_str=…,signature=…,timestamp=…,serial_no=…` (SHA256-RSA
 * over "METHOD\nPATH\nTIMESTAMP\nNONCE\nBODY\n" with our merchant public key), answers Native orders with a
 * `code_url`, and on payment POSTs the notification WeChat Pay sends: resource encrypted AEAD_AES_256_GCM with the
 * APIv3 key, body signed with the WeChat Pay private key (Wechatpay-Timestamp/-Nonce/-Signature/-Serial headers).
 */
import { createCipheriv, createSign, createVerify, randomBytes } from "node:crypto";
import { startFakeServer } from "./fake-http.ts";

interface Order {
  outTradeNo: string;
  total: number;
  notifyUrl: string;
  transactionId: string;
  refunded: number;
}

export async function startFakeWechatPay(opts: {
  appId: string;
  mchId: string;
  mchSerial: string;
  merchantPublicKey: string;
  apiV3Key: string;
  platformPrivateKey: string;
  platformKeyId: string;
}) {
  const orders = new Map<string, Order>();
  const seen = {
    badSignatures: 0,
    orders: 0,
    /** Refunds WeChat Pay made (a repeated out_refund_no is answered, not counted). */
    refunds: [] as { outTradeNo: string; refund: number; outRefundNo: string }[],
    /** GET /v3/refund/domestic/refunds/{out_refund_no} (a poll of a PROCESSING refund). */
    refundQueries: 0,
  };
  const refundsByNo = new Map<string, string>();
  /** `processing`: new refunds answer PROCESSING (as WeChat Pay's usually do) until `settleRefund`. */
  const refundMode = { processing: false };

  const server = await startFakeServer((req) => {
    const auth = req.headers.authorization ?? "";
    const m = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(auth);
    const fields = Object.fromEntries(
      [...(m?.[1] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!] as const),
    );
    const message = `${req.method}\n${req.path}${req.query.size ? `?${req.query}` : ""}\n${fields.timestamp}\n${fields.nonce_str}\n${req.body}\n`;
    const ok =
      !!fields.signature &&
      fields.mchid === opts.mchId &&
      fields.serial_no === opts.mchSerial &&
      createVerify("RSA-SHA256").update(message).verify(opts.merchantPublicKey, fields.signature, "base64");
    if (!ok) {
      seen.badSignatures++;
      return { status: 401, body: JSON.stringify({ code: "SIGN_ERROR", message: "签名错误" }) };
    }
    if (req.method === "POST" && req.path === "/v3/pay/transactions/native") {
      const b = JSON.parse(req.body) as {
        appid: string;
        mchid: string;
        out_trade_no: string;
        notify_url: string;
        amount: { total: number };
      };
      if (b.appid !== opts.appId || b.mchid !== opts.mchId)
        return { status: 400, body: JSON.stringify({ code: "PARAM_ERROR" }) };
      seen.orders++;
      orders.set(b.out_trade_no, {
        outTradeNo: b.out_trade_no,
        total: b.amount.total,
        notifyUrl: b.notify_url,
        transactionId: `4200${randomBytes(10).toString("hex")}`,
        refunded: 0,
      });
      return {
        status: 200,
        body: JSON.stringify({ code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(5).toString("hex")}` }),
      };
    }
    if (req.method === "POST" && req.path === "/v3/refund/domestic/refunds") {
      const b = JSON.parse(req.body) as {
        out_trade_no: string;
        out_refund_no: string;
        amount: { refund: number; total: number; currency: string };
      };
      const replay = refundsByNo.get(b.out_refund_no);
      if (replay) return { status: 200, body: replay };
      const o = orders.get(b.out_trade_no);
      if (!o) return { status: 404, body: JSON.stringify({ code: "RESOURCE_NOT_EXISTS", message: "订单不存在" }) };
      if (b.amount.total !== o.total || o.refunded + b.amount.refund > o.total) {
        return { status: 400, body: JSON.stringify({ code: "INVALID_REQUEST", message: "退款金额超过订单可退金额" }) };
      }
      o.refunded += b.amount.refund;
      seen.refunds.push({ outTradeNo: o.outTradeNo, refund: b.amount.refund, outRefundNo: b.out_refund_no });
      const body = JSON.stringify({
        refund_id: `5030${randomBytes(10).toString("hex")}`,
        out_refund_no: b.out_refund_no,
        transaction_id: o.transactionId,
        out_trade_no: o.outTradeNo,
        status: refundMode.processing ? "PROCESSING" : "SUCCESS",
        amount: { refund: b.amount.refund, total: o.total, currency: "CNY" },
      });
      refundsByNo.set(b.out_refund_no, body);
      return { status: 200, body };
    }
    const r = /^\/v3\/refund\/domestic\/refunds\/([\w-]+)$/.exec(req.path);
    if (req.method === "GET" && r) {
      seen.refundQueries++;
      const found = refundsByNo.get(r[1]!);
      return found
        ? { status: 200, body: found }
        : { status: 404, body: JSON.stringify({ code: "RESOURCE_NOT_EXISTS", message: "退款单不存在" }) };
    }
    return { status: 404, body: JSON.stringify({ code: "NOT_FOUND" }) };
  });

  /** The notification for a paid order; `over` forges parts of it for the negative tests. */
  function notification(
    outTradeNo: string,
    over: { key?: string; apiV3Key?: string; timestamp?: number; serial?: string; total?: number } = {},
  ) {
    const o = orders.get(outTradeNo);
    if (!o) throw new Error(`no wechat order ${outTradeNo}`);
    const resource = {
      mchid: opts.mchId,
      appid: opts.appId,
      out_trade_no: o.outTradeNo,
      transaction_id: o.transactionId,
      trade_type: "NATIVE",
      trade_state: "SUCCESS",
      trade_state_desc: "支付成功",
      success_time: "2026-11-23T12:00:00+08:00",
      payer: { openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" },
      amount: {
        total: over.total ?? o.total,
        payer_total: over.total ?? o.total,
        currency: "CNY",
        payer_currency: "CNY",
      },
    };
    const nonce = randomBytes(6).toString("hex");
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(over.apiV3Key ?? opts.apiV3Key), Buffer.from(nonce));
    cipher.setAAD(Buffer.from("transaction"));
    const ct = Buffer.concat([cipher.update(JSON.stringify(resource)), cipher.final(), cipher.getAuthTag()]);
    const body = JSON.stringify({
      id: randomBytes(16).toString("hex"),
      create_time: "2026-11-23T12:00:00+08:00",
      resource_type: "encrypt-resource",
      event_type: "TRANSACTION.SUCCESS",
      summary: "支付成功",
      resource: {
        original_type: "transaction",
        algorithm: "AEAD_AES_256_GCM",
        ciphertext: ct.toString("base64"),
        associated_data: "transaction",
        nonce,
      },
    });
    const timestamp = String(over.timestamp ?? Math.floor(Date.now() / 1000));
    const headerNonce = randomBytes(16).toString("hex");
    const signature = createSign("RSA-SHA256")
      .update(`${timestamp}\n${headerNonce}\n${body}\n`)
      .sign(over.key ?? opts.platformPrivateKey, "base64");
    return {
      body,
      headers: {
        "content-type": "application/json",
        "wechatpay-timestamp": timestamp,
        "wechatpay-nonce": headerNonce,
        "wechatpay-signature": signature,
        "wechatpay-serial": over.serial ?? opts.platformKeyId,
      },
    };
  }

  return {
    url: server.url,
    close: server.close,
    seen,
    orders,
    notification,
    refundMode,
    /** What WeChat Pay does later to a PROCESSING refund: SUCCESS, or ABNORMAL (the payer's account cannot take it). */
    settleRefund(outRefundNo: string, status: "SUCCESS" | "ABNORMAL") {
      const found = refundsByNo.get(outRefundNo);
      if (!found) throw new Error(`no refund ${outRefundNo}`);
      const refund = JSON.parse(found) as { out_trade_no: string; status: string; amount: { refund: number } };
      refund.status = status;
      if (status === "ABNORMAL") orders.get(refund.out_trade_no)!.refunded -= refund.amount.refund;
      refundsByNo.set(outRefundNo, JSON.stringify(refund));
    },
    /** The payer scans the code and pays: WeChat Pay POSTs the signed, encrypted notification to our notify_url. */
    async pay(outTradeNo: string, n = notification(outTradeNo)) {
      const res = await fetch(orders.get(outTradeNo)!.notifyUrl, { method: "POST", headers: n.headers, body: n.body });
      return { status: res.status, body: await res.text() };
    },
  };
}
