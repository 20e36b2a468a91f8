/**
 * Stripe adapter (official `stripe` SDK). Cards only: the browser tokenizes the card with our publishable key
 * (Stripe.js → a PaymentMethod `pm_…`); we create a Customer with the billing details, attach the PaymentMethod
 * and confirm an off-session SetupIntent (the bank checks the card once, so a bad card fails at binding, "card
 * information is wrong"), keeping only the ids, brand, last 4 and expiry. A recharge is an off-session
 * PaymentIntent confirmed at once with an idempotency key per order; the credit comes only from the signed
 * `payment_intent.succeeded` webhook (stripe.webhooks.constructEvent), like every provider's. A refund counts as
 * refunded only when Stripe says `succeeded`; a pending one is settled by `charge.refund.updated` /
 * `refund.updated` or by the poll job (refunds/manage-refund.ts).
 */
import type { Customer } from "@moonport/contracts";
import Stripe from "stripe";
import type { AppContext } from "../../../context.ts";
import { header, NANO_PER_MINOR, type PaymentProvider, type RefundOutcome, toMinor } from "./provider.ts";

export const STRIPE = "stripe";

function sdkOptions(apiUrl: string | undefined): ConstructorParameters<typeof Stripe>[1] {
  const base: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 2, telemetry: false, timeout: 20_000 };
  if (!apiUrl) return base;
  const u = new URL(apiUrl);
  return {
    ...base,
    host: u.hostname,
    port: u.port || (u.protocol === "http:" ? 80 : 443),
    protocol: u.protocol === "http:" ? "http" : "https",
  };
}

const isCardError = (err: unknown) =>
  err instanceof Stripe.errors.StripeCardError ||
  (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === "resource_missing");

/**
 * A Stripe Refund's status as our outcome. Only `succeeded` is refunded: `pending` and `requires_action` are on
 * their way (a webhook or a poll settles them), `failed` and `canceled` are refusals. A `succeeded` refund can
 * still fail later (Stripe's 5126 test card; a closed card account): its `charge.refund.updated` says so.
 */
function refundOutcome(refund: Stripe.Refund): RefundOutcome {
  if (refund.status === "succeeded") return { status: "refunded", providerRef: refund.id };
  if (refund.status === "failed" || refund.status === "canceled") {
    return { status: "refused", reason: refund.failure_reason ?? refund.status };
  }
  return { status: "pending", providerRef: refund.id };
}

/** The events that carry a Refund object whose status changed. */
const REFUND_EVENTS = new Set<string>(["charge.refund.updated", "refund.updated", "refund.failed"]);

export function stripeProvider(ctx: Pick<AppContext, "config" | "log">): PaymentProvider {
  const cfg = ctx.config.payments.stripe!;
  const stripe = new Stripe(cfg.secretKey, sdkOptions(cfg.apiUrl));
  const apiBase = cfg.apiUrl?.replace(/\/+$/, "") ?? "https://api.stripe.com";
  return {
    name: STRIPE,
    acknowledgement: { status: 200, contentType: "application/json", body: '{"received":true}' },
    cardClient: { name: STRIPE, tokenizeUrl: `${apiBase}/v1/payment_methods`, publishableKey: cfg.publishableKey },
    async openOrder() {
      throw new Error("Stripe serves card payments only");
    },
    async saveCard(token: string, customer: Customer, orgId: string) {
      if (!/^pm_\w+$/.test(token)) return null;
      try {
        const cus = await stripe.customers.create({
          email: customer.email,
          name: `${customer.firstName} ${customer.lastName}`,
          phone: customer.phone,
          address: {
            line1: customer.street,
            city: customer.city,
            state: customer.state,
            postal_code: customer.postcode,
            country: customer.countryCode.toUpperCase(),
          },
          metadata: { orgId },
        });
        const pm = await stripe.paymentMethods.attach(token, { customer: cus.id });
        const setup = await stripe.setupIntents.create({
          customer: cus.id,
          payment_method: pm.id,
          confirm: true,
          usage: "off_session",
        });
        if (setup.status !== "succeeded" || !pm.card) return null;
        return {
          token: pm.id,
          customerRef: cus.id,
          brand: pm.card.brand,
          last4: pm.card.last4,
          expMonth: pm.card.exp_month,
          expYear: pm.card.exp_year,
        };
      } catch (err) {
        if (isCardError(err)) return null;
        throw err;
      }
    },
    async chargeCard(payment, card) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: toMinor(payment.amount),
            currency: payment.currency.toLowerCase(),
            customer: card.providerCustomer ?? undefined,
            payment_method: card.token,
            confirm: true,
            off_session: true,
            metadata: { paymentId: payment.id, orgId: payment.orgId },
          },
          // A retried charge (continue after a processing error, a network retry) never charges twice.
          { idempotencyKey: `moonport-${payment.id}` },
        );
        if (intent.status === "succeeded" || intent.status === "processing") return "pending";
        return intent.status === "requires_payment_method" ? "declined" : "retry";
      } catch (err) {
        if (isCardError(err)) return "declined";
        ctx.log.warn({ paymentId: payment.id, err: (err as Error).name }, "stripe charge failed; order stays waiting");
        return "retry";
      }
    },
    async refund(payment, order) {
      if (!payment.providerRef?.startsWith("pi_")) return { status: "refused", reason: "no Stripe charge on record" };
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: payment.providerRef,
            amount: toMinor(order.amount),
            metadata: { refundId: order.refundId },
          },
          // Asked again after a crash or a timeout, Stripe answers the refund it made instead of refunding twice.
          { idempotencyKey: order.idempotencyKey },
        );
        return refundOutcome(refund);
      } catch (err) {
        // A refusal (charge already refunded, amount too large, disputed) is final; anything else is retried.
        if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripeCardError) {
          return { status: "refused", reason: err.code ?? "refund_refused" };
        }
        throw err;
      }
    },
    async refundStatus(_payment, { providerRef }) {
      return refundOutcome(await stripe.refunds.retrieve(providerRef));
    },
    async removeCard(card) {
      try {
        await stripe.paymentMethods.detach(card.token);
      } catch (err) {
        ctx.log.warn({ cardId: card.id, err: (err as Error).name }, "stripe detach failed; card removed locally");
      }
    },
    async verifyNotification(req) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          req.rawBody,
          header(req.headers, "stripe-signature") ?? "",
          cfg.webhookSecret,
        );
      } catch {
        return null;
      }
      if (REFUND_EVENTS.has(event.type)) {
        const refund = event.data.object as Stripe.Refund;
        const refundId = refund.metadata?.refundId;
        if (refund.object !== "refund" || !refundId) return "irrelevant";
        return { kind: "refund", eventId: event.id, refundId, providerRef: refund.id, outcome: refundOutcome(refund) };
      }
      if (event.type !== "payment_intent.succeeded" && event.type !== "payment_intent.payment_failed") {
        return "irrelevant";
      }
      const intent = event.data.object;
      const paymentId = intent.metadata?.paymentId;
      if (!paymentId) return "irrelevant";
      return event.type === "payment_intent.succeeded"
        ? {
            eventId: event.id,
            paymentId,
            verdict: "paid",
            amount: BigInt(intent.amount_received) * NANO_PER_MINOR,
            providerRef: intent.id,
          }
        : {
            eventId: event.id,
            paymentId,
            verdict: "failed",
            reason: intent.last_payment_error?.code ?? "card_declined",
          };
    },
  };
}
