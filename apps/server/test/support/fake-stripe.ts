/**
 * A local fake of Stripe's HTTP API (the parts Moonport uses), for the Stripe adapter's tests. It checks our
 * secret key on every server call (the publishable key only for browser tokenization), requires an idempotency key
 * on PaymentIntents, behaves like Stripe's documented test cards, and sends `payment_intent.*` and refund events
 * to our webhook signed like Stripe (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`).
 */
import { createHmac, randomBytes } from "node:crypto";
import { type FakeRequest, type FakeResponse, startFakeServer } from "./fake-http.ts";

/** Stripe's test cards: 4242… succeeds; 0002 is declined (at SetupIntent); 0341 attaches but every charge fails. */
const DECLINE_ALWAYS = "4000000000000002";
const DECLINE_ON_CHARGE = "4000000000000341";
/** Charges succeed, refunds fail (status `failed`, as Stripe's 5126 test card's refunds end). */
const REFUND_FAILS = "4000000000005126";
/** Charges succeed, refunds start `pending` (Stripe's 7726 test card); `settleRefund` ends them. */
const REFUND_PENDING = "4000000000007726";

interface PM {
  id: string;
  number: string;
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;
const json = (status: number, body: unknown): FakeResponse => ({ status, body: JSON.stringify(body) });
const stripeError = (status: number, type: string, code: string, message: string, extra: object = {}) =>
  json(status, { error: { type, code, message, ...extra } });

export async function startFakeStripe(opts: { secretKey: string; publishableKey: string; webhookSecret: string }) {
  const customers = new Map<string, Record<string, string>>();
  const paymentMethods = new Map<string, PM>();
  const intentsByKey = new Map<string, { status: number; body: string }>();
  const events: { id: string; body: string }[] = [];
  const seen = {
    customerCreates: 0,
    badAuth: 0,
    intents: [] as Record<string, string>[],
    /** Refunds Stripe actually made (a replayed idempotency key is not counted). */
    refunds: [] as { id: string; paymentIntent: string; amount: number; status: string }[],
    /** GET /v1/refunds/:id (a poll of a pending refund). */
    refundReads: 0,
  };
  const intents = new Map<string, { amount: number; refunded: number; number: string }>();
  const refundsByKey = new Map<string, FakeResponse>();
  const refundsById = new Map<string, Record<string, unknown> & { id: string; status: string }>();
  /** Answer this many refund calls with a 500 (an outage), before doing anything. */
  const outage = { refunds: 0 };
  let webhookUrl = "";

  const auth = (req: FakeRequest) => req.headers.authorization?.replace(/^Bearer /, "");

  function event(type: string, object: object) {
    const e = { id: id("evt"), object: "event", type, api_version: "2025-01-01", created: 0, data: { object } };
    events.push({ id: e.id, body: JSON.stringify(e) });
  }

  function handle(req: FakeRequest): FakeResponse {
    const form = Object.fromEntries(new URLSearchParams(req.body));
    if (req.method === "POST" && req.path === "/v1/payment_methods") {
      // Browser tokenization: publishable key only.
      if (auth(req) !== opts.publishableKey)
        return stripeError(401, "invalid_request_error", "api_key_invalid", "bad key");
      const number = (form["card[number]"] ?? "").replace(/\s/g, "");
      if (!/^\d{12,19}$/.test(number)) return stripeError(402, "card_error", "incorrect_number", "bad number");
      const pm: PM = {
        id: id("pm"),
        number,
        customer: null,
        card: {
          brand: number.startsWith("5") ? "mastercard" : "visa",
          last4: number.slice(-4),
          exp_month: Number(form["card[exp_month]"]),
          exp_year: Number(form["card[exp_year]"]),
        },
      };
      paymentMethods.set(pm.id, pm);
      return json(200, { id: pm.id, object: "payment_method", type: "card", card: pm.card, customer: null });
    }
    if (auth(req) !== opts.secretKey) {
      seen.badAuth++;
      return stripeError(401, "invalid_request_error", "api_key_invalid", "Invalid API Key provided");
    }
    if (req.method === "POST" && req.path === "/v1/customers") {
      seen.customerCreates++;
      const c = { id: id("cus"), object: "customer", ...form };
      customers.set(c.id, form);
      return json(200, c);
    }
    const m = /^\/v1\/payment_methods\/(\w+)\/(attach|detach)$/.exec(req.path);
    if (req.method === "POST" && m) {
      const pm = paymentMethods.get(m[1]!);
      if (!pm) return stripeError(404, "invalid_request_error", "resource_missing", "No such PaymentMethod");
      if (m[2] === "attach") {
        if (!customers.has(form.customer ?? ""))
          return stripeError(404, "invalid_request_error", "resource_missing", "No such customer");
        pm.customer = form.customer!;
      } else pm.customer = null;
      return json(200, { id: pm.id, object: "payment_method", type: "card", card: pm.card, customer: pm.customer });
    }
    if (req.method === "POST" && req.path === "/v1/setup_intents") {
      const pm = paymentMethods.get(form.payment_method ?? "");
      if (!pm || pm.customer !== form.customer)
        return stripeError(400, "invalid_request_error", "resource_missing", "bad pm");
      if (pm.number === DECLINE_ALWAYS)
        return stripeError(402, "card_error", "card_declined", "Your card was declined.");
      return json(200, { id: id("seti"), object: "setup_intent", status: "succeeded", payment_method: pm.id });
    }
    if (req.method === "POST" && req.path === "/v1/payment_intents") {
      const key = req.headers["idempotency-key"];
      if (typeof key !== "string" || !key)
        return stripeError(400, "invalid_request_error", "idempotency_key_required", "no key");
      const replay = intentsByKey.get(key);
      if (replay) return replay;
      seen.intents.push(form);
      const pm = paymentMethods.get(form.payment_method ?? "");
      const intent = {
        id: id("pi"),
        object: "payment_intent",
        amount: Number(form.amount),
        amount_received: 0,
        currency: form.currency,
        customer: form.customer,
        payment_method: form.payment_method,
        metadata: { paymentId: form["metadata[paymentId]"], orgId: form["metadata[orgId]"] },
        status: "succeeded",
        last_payment_error: null as null | { code: string },
      };
      let out: FakeResponse;
      if (!pm || pm.customer !== form.customer || pm.number === DECLINE_ON_CHARGE) {
        intent.status = "requires_payment_method";
        intent.last_payment_error = { code: "card_declined" };
        event("payment_intent.payment_failed", intent);
        out = stripeError(402, "card_error", "card_declined", "Your card was declined.", { payment_intent: intent });
      } else {
        intent.amount_received = intent.amount;
        intents.set(intent.id, { amount: intent.amount, refunded: 0, number: pm.number });
        event("payment_intent.succeeded", intent);
        out = json(200, intent);
      }
      intentsByKey.set(key, out);
      return out;
    }
    if (req.method === "POST" && req.path === "/v1/refunds") {
      if (outage.refunds > 0) {
        outage.refunds--;
        return stripeError(500, "api_error", "internal", "An unknown error occurred");
      }
      const key = req.headers["idempotency-key"];
      if (typeof key !== "string" || !key)
        return stripeError(400, "invalid_request_error", "idempotency_key_required", "no key");
      const replay = refundsByKey.get(key);
      if (replay) return replay;
      const pi = intents.get(form.payment_intent ?? "");
      if (!pi) return stripeError(404, "invalid_request_error", "resource_missing", "No such payment_intent");
      const amount = Number(form.amount ?? pi.amount - pi.refunded);
      if (pi.refunded >= pi.amount)
        return stripeError(
          400,
          "invalid_request_error",
          "charge_already_refunded",
          "Charge has already been refunded.",
        );
      if (amount > pi.amount - pi.refunded)
        return stripeError(
          400,
          "invalid_request_error",
          "amount_too_large",
          "Refund amount is greater than unrefunded amount.",
        );
      const status = pi.number === REFUND_FAILS ? "failed" : pi.number === REFUND_PENDING ? "pending" : "succeeded";
      if (status !== "failed") pi.refunded += amount;
      const refund = {
        id: id("re"),
        object: "refund",
        amount,
        payment_intent: form.payment_intent,
        status,
        failure_reason: status === "failed" ? "expired_or_canceled_card" : null,
        metadata: { refundId: form["metadata[refundId]"] },
      };
      seen.refunds.push({ id: refund.id, paymentIntent: form.payment_intent!, amount, status });
      refundsById.set(refund.id, refund);
      const out = json(200, refund);
      refundsByKey.set(key, out);
      return out;
    }
    const r = /^\/v1\/refunds\/(\w+)$/.exec(req.path);
    if (req.method === "GET" && r) {
      seen.refundReads++;
      const refund = refundsById.get(r[1]!);
      return refund
        ? json(200, refund)
        : stripeError(404, "invalid_request_error", "resource_missing", "No such refund");
    }
    return stripeError(
      404,
      "invalid_request_error",
      "resource_missing",
      `Unrecognized request URL (${req.method}: ${req.path})`,
    );
  }

  const server = await startFakeServer(handle);

  function sign(body: string, secret = opts.webhookSecret, t = Math.floor(Date.now() / 1000)) {
    return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
  }
  async function deliver(e: { body: string }, signature = sign(e.body)) {
    const res = await fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: e.body,
    });
    return { status: res.status, body: await res.text() };
  }

  return {
    url: server.url,
    close: server.close,
    seen,
    outage,
    events,
    setWebhook(url: string) {
      webhookUrl = url;
    },
    /** What Stripe.js does in the browser: card data to Stripe with the publishable key → a PaymentMethod id. */
    async tokenize(number: string): Promise<string> {
      const res = await fetch(`${server.url}/v1/payment_methods`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${opts.publishableKey}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          type: "card",
          "card[number]": number,
          "card[exp_month]": "12",
          "card[exp_year]": "2034",
          "card[cvc]": "123",
        }),
      });
      return ((await res.json()) as { id: string }).id;
    },
    deliver,
    sign,
    /**
     * What Stripe does later to a refund: a pending one succeeds or fails, a succeeded one may still fail. The
     * status changes at once (a poll sees it) and the events are queued (`deliverAll` sends them).
     */
    settleRefund(refundId: string, status: "succeeded" | "failed") {
      const refund = refundsById.get(refundId);
      if (!refund) throw new Error(`no refund ${refundId}`);
      refund.status = status;
      if (status === "failed") refund.failure_reason = "lost_or_stolen_card";
      const pi = intents.get(String(refund.payment_intent));
      if (pi && status === "failed") pi.refunded -= Number(refund.amount);
      event("charge.refund.updated", { ...refund });
      event("refund.updated", { ...refund });
    },
    /** Sends every event not yet sent (Stripe's asynchronous webhook delivery). */
    async deliverAll() {
      const out = [];
      for (const e of events.splice(0)) out.push({ event: e, ...(await deliver(e)) });
      return out;
    },
  };
}
