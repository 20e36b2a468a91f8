/**
 * The built-in sandbox payment service provider: the development default, so the whole recharge flow works on a
 * fresh machine; off in production unless PAYMENT_SANDBOX=allow (payment-methods.ts), since what it "pays" becomes
 * spendable balance. It behaves like a real PSP from our side: hosted checkout/QR pages and a card-tokenization
 * endpoint under its own prefix (`/sandbox-psp`, sandbox-routes.ts, never under /api), test cards that succeed,
 * decline or need a retry, and asynchronous notifications signed with HMAC-SHA256 (the kept secret,
 * sandbox-secret.ts) delivered by a durable job that retries like a PSP does until our endpoint accepts them.
 *
 * It is stateless: checkout links and card tokens carry their data signed with the secret, so any instance
 * serves them. A card number and CVC are checked (Luhn, expiry, test-card table) and then forgotten: the token
 * holds only brand, last 4, expiry and the test card's behaviour.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { AppContext } from "../../context.ts";

export const SANDBOX = "sandbox";
export const SANDBOX_PREFIX = "/sandbox-psp";
export const NOTIFY_JOB = "payments.sandbox-notify";
export const SIGNATURE_HEADER = "x-sandbox-signature";

export type Behaviour = "succeed" | "decline" | "retry" | "refund_fail";
/** Test cards, as PSPs document theirs. Any other valid number succeeds. */
export const TEST_CARDS: Record<string, { brand: string; behaviour: Behaviour }> = {
  "4242424242424242": { brand: "visa", behaviour: "succeed" },
  "5555555555554444": { brand: "mastercard", behaviour: "succeed" },
  "4000000000000002": { brand: "visa", behaviour: "decline" },
  "4000000000000119": { brand: "visa", behaviour: "retry" },
  // Charges succeed, refunds are refused (as Stripe's 4000 0000 0000 5126).
  "4000000000005126": { brand: "visa", behaviour: "refund_fail" },
};

const b64 = (s: string) => Buffer.from(s).toString("base64url");
const unb64 = (s: string) => Buffer.from(s, "base64url").toString();

function mac(secret: string, data: string): string {
  return createHmac("sha256", secret).update(data).digest("base64url");
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function sealed<T>(secret: string, kind: string, value: T): string {
  const body = b64(JSON.stringify(value));
  return `${kind}_${body}.${mac(secret, `${kind}.${body}`)}`;
}

function unseal<T>(secret: string, kind: string, token: string): T | null {
  const m = /^([a-z]+)_([\w-]+)\.([\w-]+)$/.exec(token);
  if (!m || m[1] !== kind || !safeEqual(m[3]!, mac(secret, `${kind}.${m[2]}`))) return null;
  try {
    return JSON.parse(unb64(m[2]!)) as T;
  } catch {
    return null;
  }
}

export interface CheckoutData {
  paymentId: string;
  amount: string;
  currency: string;
  payType: string;
}

export function checkoutLink(secret: string, data: CheckoutData): string {
  return `${SANDBOX_PREFIX}/checkout?c=${sealed(secret, "chk", data)}`;
}
export function readCheckout(secret: string, token: string): CheckoutData | null {
  return unseal<CheckoutData>(secret, "chk", token);
}

interface CardToken {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  behaviour: Behaviour;
  /**
   * Makes every tokenization a new token, as a real PSP's payment method is: without it the same card typed twice
   * gave the same token, and a second organization could not bind a card the first one had bound.
   */
  nonce: string;
}

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export type TokenizeResult =
  | { ok: true; token: string; brand: string; last4: string; expMonth: number; expYear: number }
  | { ok: false; error: "invalid_number" | "invalid_cvc" | "invalid_expiry" };

/** The PSP's tokenization endpoint logic. `now` decides expiry. */
export function tokenizeCard(
  secret: string,
  card: { number: string; cvc: string; expMonth: number; expYear: number },
  now: Date,
): TokenizeResult {
  const number = card.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { ok: false, error: "invalid_number" };
  if (!/^\d{3,4}$/.test(card.cvc)) return { ok: false, error: "invalid_cvc" };
  const y = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const m = card.expMonth;
  if (!Number.isInteger(m) || m < 1 || m > 12 || !Number.isInteger(y)) return { ok: false, error: "invalid_expiry" };
  const endOfMonth = Date.UTC(y, m, 1);
  if (endOfMonth <= now.getTime()) return { ok: false, error: "invalid_expiry" };
  const known = TEST_CARDS[number];
  const brand = known?.brand ?? (number.startsWith("4") ? "visa" : number.startsWith("5") ? "mastercard" : "card");
  const data: CardToken = {
    brand,
    last4: number.slice(-4),
    expMonth: m,
    expYear: y,
    behaviour: known?.behaviour ?? "succeed",
    nonce: randomBytes(6).toString("base64url"),
  };
  return { ok: true, token: sealed(secret, "tok", data), brand, last4: data.last4, expMonth: m, expYear: y };
}

export function readCardToken(secret: string, token: string): CardToken | null {
  return unseal<CardToken>(secret, "tok", token);
}

export interface SandboxNotification {
  id: string;
  type: "payment.succeeded" | "payment.failed";
  data: { paymentId: string; amount: string; reason?: string };
}

export function signNotification(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** Verifies the signature header over the raw body; null when it does not match. */
export function verifyNotification(
  secret: string,
  rawBody: string,
  header: string | undefined,
): SandboxNotification | null {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!m) return null;
  const expected = createHmac("sha256", secret).update(`${m[1]}.${rawBody}`).digest("hex");
  if (!safeEqual(m[2]!, expected)) return null;
  try {
    const n = JSON.parse(rawBody) as SandboxNotification;
    if (typeof n?.id !== "string" || typeof n.data?.paymentId !== "string") return null;
    return n;
  } catch {
    return null;
  }
}

/**
 * Queues the PSP's asynchronous notification (signed when built). The durable job delivers it to our notify
 * handler and retries with backoff until it is accepted, like a PSP's webhook retries.
 */
export async function queueSandboxNotification(
  ctx: Pick<AppContext, "jobs" | "config" | "clock">,
  n: Omit<SandboxNotification, "id"> & { id?: string },
): Promise<SandboxNotification> {
  const notification: SandboxNotification = { id: n.id ?? `evt_${randomUUID()}`, type: n.type, data: n.data };
  const body = JSON.stringify(notification);
  const signature = signNotification(
    ctx.config.payments.sandboxSecret,
    body,
    Math.floor(ctx.clock.now().getTime() / 1000),
  );
  await ctx.jobs.enqueue({ name: NOTIFY_JOB, payload: { body, signature } });
  return notification;
}
