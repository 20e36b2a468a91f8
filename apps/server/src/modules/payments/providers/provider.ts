/**
 * The payment provider interface. Everything provider-specific (how an order is opened, how a card is saved and
 * charged, how a notification is authenticated) lives behind it; the rest of modules/payments and the billing core
 * see only verified verdicts keyed by the provider's own event or transaction id (settle-payment.ts).
 */
import type { Customer } from "@moonport/contracts";
import type { schema } from "@moonport/db";

export type PaymentRow = typeof schema.payments.$inferSelect;
export type CardRow = typeof schema.paymentCards.$inferSelect;

/** A hosted order: the provider's id for it and what the payer opens (QR payload or URL); null = derived later. */
export interface OpenedOrder {
  providerRef: string;
  checkout: string | null;
}

/** A card the provider tokenized and saved: only the token and what a card list shows. */
export interface SavedCard {
  token: string;
  customerRef: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/**
 * Charging a saved card: `pending` = accepted, the signed notification will credit it (one crediting path);
 * `declined` = the card is refused ("card information is wrong"); `retry` = a processing error, the order stays
 * waiting and may be continued or cancelled.
 */
export type ChargeOutcome = "pending" | "declined" | "retry";

/** A notification whose signature (and, for WeChat Pay, encryption) checked out, reduced to a verdict. */
export interface VerifiedNotification {
  /** Idempotency key of the notification (provider event id or transaction id + state). */
  eventId: string;
  paymentId: string;
  verdict: "paid" | "failed";
  amount?: bigint;
  reason?: string;
  /** The provider's id of the paid charge (Stripe `pi_…`), kept on the payment for refunds. */
  providerRef?: string;
}

export interface NotificationRequest {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  now: Date;
}

/** How the provider wants a notification acknowledged (anything else makes it retry). */
export interface Acknowledgement {
  status: number;
  contentType: string;
  body: string;
}

/**
 * A refund at the provider. `refunded` = done (its id at the provider); `pending` = accepted but not done yet
 * (Stripe's `pending` / `requires_action`, WeChat Pay's PROCESSING): the refund stays `refunding` until the
 * provider's refund notification or a poll (`refundStatus`) settles it; `refused` = a definitive no with the
 * provider's reason (the cash goes back to the balance). Anything else (network, 5xx) throws and is retried with
 * the same idempotency key, so the provider refunds once however often it is asked.
 */
export type RefundOutcome =
  | { status: "refunded"; providerRef: string }
  | { status: "pending"; providerRef: string }
  | { status: "refused"; reason: string };

/** An authentic notification about one of our refunds (Stripe `charge.refund.updated` / `refund.updated`). */
export interface VerifiedRefundNotification {
  kind: "refund";
  eventId: string;
  /** Ours, from the metadata the refund was created with. */
  refundId: string;
  /** The provider's refund id: only the refund we recorded is settled by it. */
  providerRef: string;
  outcome: RefundOutcome;
}

export interface RefundOrder {
  /** Our refund id plus the attempt: the idempotency key of this provider call. */
  idempotencyKey: string;
  refundId: string;
  amount: bigint;
}

export interface PaymentProvider {
  readonly name: string;
  /** Opens a QR / hosted order for wxpay, alipay or unionpay. */
  openOrder(payment: PaymentRow): Promise<OpenedOrder>;
  /** Saves a card from the token the browser got from the provider; null = the provider refused it. */
  saveCard?(token: string, customer: Customer, orgId: string): Promise<SavedCard | null>;
  chargeCard?(payment: PaymentRow, card: CardRow): Promise<ChargeOutcome>;
  /** Removes a saved card at the provider (best effort: our row is deleted either way). */
  removeCard?(card: CardRow): Promise<void>;
  /**
   * Authenticates a notification. null = bad signature (nothing changes, 400 so a misconfigured endpoint is
   * retried); "irrelevant" = authentic but not about a payment verdict (acknowledged, ignored).
   */
  verifyNotification(
    req: NotificationRequest,
  ): Promise<VerifiedNotification | VerifiedRefundNotification | "irrelevant" | null>;
  readonly acknowledgement: Acknowledgement;
  /** Refunds part or all of a paid order (absent: the provider cannot refund through its API). */
  refund?(payment: PaymentRow, order: RefundOrder, card: CardRow | null): Promise<RefundOutcome>;
  /**
   * Asks where a `pending` refund stands, by the provider's refund id or our idempotency key (WeChat Pay looks
   * refunds up by `out_refund_no`); the poll job's question.
   */
  refundStatus?(payment: PaymentRow, ref: { providerRef: string; idempotencyKey: string }): Promise<RefundOutcome>;
  /** What the browser needs to tokenize a card with this provider (cards only). */
  readonly cardClient?: { name: string; tokenizeUrl: string | null; publishableKey: string | null };
}

export function header(headers: NotificationRequest["headers"], name: string): string | undefined {
  const v = headers[name];
  return typeof v === "string" ? v : Array.isArray(v) ? v[0] : undefined;
}

/** PEM from an env value that may carry `\n` escapes or only the base64 body. */
export function pem(value: string, label: "PRIVATE KEY" | "PUBLIC KEY"): string {
  const v = value.replace(/\\n/g, "\n").trim();
  if (v.startsWith("-----BEGIN")) return `${v}\n`;
  const body = v.replace(/\s+/g, "").replace(/(.{64})/g, "$1\n");
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

/** Nano-units ↔ the providers' minor units (cents / fen). Recharge amounts have at most 2 decimals. */
export const NANO_PER_MINOR = 10_000_000n;
export function toMinor(amount: bigint): number {
  if (amount % NANO_PER_MINOR !== 0n) throw new Error("amount has more than 2 decimals");
  return Number(amount / NANO_PER_MINOR);
}
