/**
 * A local fake of Alipay's OpenAPI gateway (`gateway.do`), for the Alipay adapter's tests. It verifies our RSA2
 * request signature with our app public key (every parameter but `sign`, sorted, `k=v` joined by `&`), answers
 * `alipay.trade.precreate` with a `qr_code` and signs its response with Alipay's private key like Alipay does, and,
 * when the payer "scans and pays", POSTs the asynchronous notify (form-encoded, signed over every parameter but
 * `sign` and `sign_type`) to the `notify_url` we gave, expecting the text `success`.
 */
import { createSign, createVerify, randomBytes } from "node:crypto";
import { type FakeResponse, startFakeServer } from "./fake-http.ts";

interface Order {
  outTradeNo: string;
  totalAmount: string;
  notifyUrl: string;
  tradeNo: string;
  refundedCents: number;
}

export async function startFakeAlipay(opts: { appId: string; appPublicKey: string; alipayPrivateKey: string }) {
  const orders = new Map<string, Order>();
  const seen = {
    badSignatures: 0,
    precreates: 0,
    /** Refunds Alipay made (a repeated out_request_no is answered, not counted). */
    refunds: [] as { outTradeNo: string; amount: string; outRequestNo: string }[],
  };
  const refundsByRequest = new Map<string, object>();
  const rsa2 = (text: string, key = opts.alipayPrivateKey) =>
    createSign("RSA-SHA256").update(text, "utf8").sign(key, "base64");

  function signedResponse(method: string, body: object): FakeResponse {
    const key = `${method.replaceAll(".", "_")}_response`;
    const inner = JSON.stringify(body);
    return { status: 200, body: `{"${key}":${inner},"sign":"${rsa2(inner)}"}` };
  }

  const server = await startFakeServer((req) => {
    if (req.method !== "POST" || req.path !== "/gateway.do") return { status: 404, body: "{}" };
    const params: Record<string, string> = Object.fromEntries(req.query);
    for (const [k, v] of new URLSearchParams(req.body)) params[k] = v;
    const { sign, ...rest } = params;
    const content = Object.keys(rest)
      .sort()
      .map((k) => `${k}=${rest[k]}`)
      .join("&");
    const ok = !!sign && createVerify("RSA-SHA256").update(content, "utf8").verify(opts.appPublicKey, sign, "base64");
    if (!ok || params.app_id !== opts.appId) {
      seen.badSignatures++;
      return signedResponse(params.method ?? "error", {
        code: "40002",
        msg: "Invalid Arguments",
        sub_code: "isv.invalid-signature",
        sub_msg: "验签出错",
      });
    }
    if (params.method === "alipay.trade.refund") {
      const biz = JSON.parse(params.biz_content ?? "{}") as {
        out_trade_no: string;
        refund_amount: string;
        out_request_no: string;
      };
      const o = orders.get(biz.out_trade_no);
      if (!o)
        return signedResponse(params.method, {
          code: "40004",
          msg: "Business Failed",
          sub_code: "ACQ.TRADE_NOT_EXIST",
        });
      const replay = refundsByRequest.get(biz.out_request_no);
      if (replay) return signedResponse(params.method, replay);
      const cents = (v: string) => Math.round(Number(v) * 100);
      if (o.refundedCents + cents(biz.refund_amount) > cents(o.totalAmount)) {
        return signedResponse(params.method, {
          code: "40004",
          msg: "Business Failed",
          sub_code: "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL",
        });
      }
      o.refundedCents += cents(biz.refund_amount);
      seen.refunds.push({ outTradeNo: o.outTradeNo, amount: biz.refund_amount, outRequestNo: biz.out_request_no });
      const body = {
        code: "10000",
        msg: "Success",
        trade_no: o.tradeNo,
        out_trade_no: o.outTradeNo,
        refund_fee: (o.refundedCents / 100).toFixed(2),
        fund_change: "Y",
      };
      refundsByRequest.set(biz.out_request_no, body);
      return signedResponse(params.method, body);
    }
    if (params.method !== "alipay.trade.precreate")
      return signedResponse(params.method ?? "x", { code: "40004", msg: "Business Failed" });
    seen.precreates++;
    const biz = JSON.parse(params.biz_content ?? "{}") as { out_trade_no: string; total_amount: string };
    const order: Order = {
      outTradeNo: biz.out_trade_no,
      totalAmount: biz.total_amount,
      notifyUrl: params.notify_url ?? "",
      tradeNo: `2026${randomBytes(10).toString("hex")}`,
      refundedCents: 0,
    };
    orders.set(order.outTradeNo, order);
    return signedResponse(params.method, {
      code: "10000",
      msg: "Success",
      out_trade_no: order.outTradeNo,
      qr_code: `https://qr.alipay.com/${randomBytes(6).toString("hex")}`,
    });
  });

  /** The notify form for a paid order, signed with `key` (Alipay's private key unless a test forges it). */
  function notifyForm(outTradeNo: string, over: Record<string, string> = {}, key = opts.alipayPrivateKey) {
    const o = orders.get(outTradeNo);
    if (!o) throw new Error(`no alipay order ${outTradeNo}`);
    const params: Record<string, string> = {
      notify_time: "2026-11-23 12:00:00",
      notify_type: "trade_status_sync",
      notify_id: randomBytes(12).toString("hex"),
      app_id: opts.appId,
      charset: "utf-8",
      version: "1.0",
      trade_no: o.tradeNo,
      out_trade_no: o.outTradeNo,
      trade_status: "TRADE_SUCCESS",
      total_amount: o.totalAmount,
      receipt_amount: o.totalAmount,
      buyer_logon_id: "159****5620",
      subject: "Moonport recharge",
      gmt_payment: "2026-11-23 12:00:00",
      ...over,
    };
    const content = Object.keys(params)
      .sort()
      .map((k) => `${k}=${params[k]}`)
      .join("&");
    return new URLSearchParams({ ...params, sign_type: "RSA2", sign: rsa2(content, key) }).toString();
  }

  return {
    url: server.url,
    gateway: `${server.url}/gateway.do`,
    close: server.close,
    seen,
    orders,
    notifyForm,
    /** The payer scans and pays: Alipay POSTs the signed notify to our notify_url. */
    async pay(outTradeNo: string, form = notifyForm(outTradeNo)) {
      const o = orders.get(outTradeNo)!;
      const res = await fetch(o.notifyUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
        body: form,
      });
      return { status: res.status, body: await res.text() };
    },
  };
}
