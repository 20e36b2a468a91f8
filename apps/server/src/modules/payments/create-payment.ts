import {
  type CreatePaymentRequest,
  EDITION_TIME_ZONE,
  formatMoney,
  MONTHLY_RECHARGE_ORDERS,
  PAY_TYPE_NAMES,
  PAY_TYPES_BY_EDITION,
  type Payment,
  parseMoney,
  rechargeAmountProblem,
} from "@moonport/contracts";
import { newId, randomString, schema } from "@moonport/db";
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError, fieldError } from "../../lib/app-error.ts";
import { localDate, monthPeriod } from "../../lib/edition-time.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { lockOrganizations } from "../billing/index.ts";
import { snapshotOrderInvoice } from "../invoices/index.ts";
import { paymentMethod } from "./payment-methods.ts";
import { toPayment } from "./payment-view.ts";
import { providerForPayType, requireProvider } from "./providers/index.ts";
import type { CardRow, ChargeOutcome, PaymentRow } from "./providers/provider.ts";
import { assertTransferAllowed } from "./transfer-eligibility.ts";

/** Orders created this calendar month (edition zone): the §9 limit of 30 counts them all, whatever their fate. */
export async function ordersThisMonth(ctx: AppContext, org: OrgAccess["org"], db = ctx.db): Promise<number> {
  const tz = EDITION_TIME_ZONE[org.edition];
  const today = localDate(ctx.clock.now(), tz);
  const period = monthPeriod(today.year, today.month);
  const [row] = await db
    .select({ n: count() })
    .from(schema.payments)
    .where(
      and(
        eq(schema.payments.orgId, org.id),
        sql`${schema.payments.createdAt} >= (${period.fromLocal}::timestamp at time zone ${tz})`,
      ),
    );
  return row?.n ?? 0;
}

/**
 * The waiting order that blocks a new one (§4): a payer who starts a second order while one is open risks paying
 * twice, so the open one must be paid, cancelled or closed first. The console lists it at the top of the recharge
 * screen with Continue and Cancel; the oldest is named when several wait (orders from before this rule).
 */
export async function blockingPayment(ctx: AppContext, orgId: string, db = ctx.db) {
  const p = schema.payments;
  const [row] = await db
    .select({ id: p.id, amount: p.amount, currency: p.currency, payType: p.payType })
    .from(p)
    .where(and(eq(p.orgId, orgId), eq(p.status, "waiting")))
    .orderBy(asc(p.createdAt), asc(p.id))
    .limit(1);
  return row ?? null;
}

function transferReference(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return `MP${randomString(4, alphabet)}-${randomString(4, alphabet)}`;
}

/**
 * Starts a recharge. Checks the edition's pay types and bounds, the monthly order limit and a waiting order
 * under the organization's lock (two tabs cannot both slip past), then creates the waiting order. Card
 * payments are charged at once through the provider with the bound card's token: a decline fails the order and
 * answers "card information is wrong"; success arrives by the provider's signed notification like every other
 * payment, so there is one crediting path.
 */
export async function createPayment(opts: {
  ctx: AppContext;
  access: OrgAccess;
  request: CreatePaymentRequest;
}): Promise<Payment> {
  const { ctx, access, request } = opts;
  const { org } = access;
  if (!PAY_TYPES_BY_EDITION[org.edition].includes(request.payType)) throw new AppError("pay_type_unavailable");
  const problem = rechargeAmountProblem(org.edition, request.amount);
  if (problem) throw fieldError("validation_failed", "amount", problem);
  const amount = parseMoney(request.amount);
  if (request.payType === "b2btransfer") assertTransferAllowed(org);
  // Not set up on this server (production without a real provider for it: the sandbox is off there).
  if (!paymentMethod(ctx.config, request.payType).offered) throw new AppError("pay_type_not_configured");

  let card: CardRow | undefined;
  if (request.payType === "credit_card") {
    if (!request.cardId) throw new AppError("card_required");
    [card] = await ctx.db
      .select()
      .from(schema.paymentCards)
      .where(and(eq(schema.paymentCards.id, request.cardId), eq(schema.paymentCards.orgId, org.id)));
    if (!card) throw fieldError("card_required", "cardId", "required");
  }

  const transfer = request.payType === "b2btransfer";
  // A card is charged by the provider that saved it; anything else by the one configured for its pay type.
  const provider = transfer
    ? null
    : card
      ? requireProvider(ctx, card.provider)
      : providerForPayType(ctx, request.payType);
  if (!transfer && !provider) throw new AppError("pay_type_not_configured");
  const now = ctx.clock.now();
  const payment = await withTransaction(ctx, async (tx) => {
    await lockOrganizations(tx, [org.id]);
    const blocking = await blockingPayment(ctx, org.id, tx);
    if (blocking) {
      throw new AppError("payment_pending", {
        params: { amount: formatMoney(blocking.amount, blocking.currency), payType: PAY_TYPE_NAMES[blocking.payType] },
      });
    }
    if ((await ordersThisMonth(ctx, org, tx)) >= MONTHLY_RECHARGE_ORDERS) {
      throw new AppError("payment_monthly_limit", { params: { max: MONTHLY_RECHARGE_ORDERS } });
    }
    const id = newId("pay");
    const [row] = await tx
      .insert(schema.payments)
      .values({
        id,
        orgId: org.id,
        amount,
        currency: org.currency,
        payType: request.payType,
        provider: provider?.name ?? "transfer",
        providerRef: null,
        transferReference: transfer ? transferReference() : null,
        cardId: card?.id ?? null,
        createdBy: access.userId,
        createdAt: now,
      })
      .returning();
    // §6: a global card payment needs the international invoice information; its invoice is recorded with it.
    if (org.edition === "global" && request.payType === "credit_card") await snapshotOrderInvoice(ctx, tx, row!);
    return row!;
  });

  if (card) {
    const outcome = await provider!.chargeCard!(payment, card);
    await applyChargeOutcome(ctx, payment, outcome, now);
    return toPayment(ctx, payment, { brand: card.brand, last4: card.last4 });
  }
  if (!provider) return toPayment(ctx, payment, null);
  // Opening the order at the provider happens after our commit (no network call under the organization's lock).
  // If the provider fails, the order is closed at once so it blocks nothing, and nothing was charged.
  let opened: Awaited<ReturnType<typeof provider.openOrder>>;
  try {
    opened = await provider.openOrder(payment);
  } catch (err) {
    ctx.log.warn({ paymentId: payment.id, provider: provider.name, err: (err as Error).message }, "order not opened");
    await ctx.db
      .update(schema.payments)
      .set({ status: "closed", failureReason: "provider_error", finishedAt: now })
      .where(eq(schema.payments.id, payment.id));
    throw new AppError("payment_provider_unavailable");
  }
  const [row] = await ctx.db
    .update(schema.payments)
    .set({ providerRef: opened.providerRef, providerCheckout: opened.checkout })
    .where(eq(schema.payments.id, payment.id))
    .returning();
  return toPayment(ctx, row ?? payment, null);
}

/**
 * What a card charge means for the order: `pending` leaves it waiting for the provider's signed notification
 * (the one crediting path); a decline fails it ("card information is wrong"); a processing error keeps it
 * waiting, so the payer may continue or cancel it (until then it blocks a new order).
 */
export async function applyChargeOutcome(ctx: AppContext, payment: PaymentRow, outcome: ChargeOutcome, now: Date) {
  if (outcome === "declined") {
    await ctx.db
      .update(schema.payments)
      .set({ status: "failed", failureReason: "card_declined", finishedAt: now })
      .where(and(eq(schema.payments.id, payment.id), eq(schema.payments.status, "waiting")));
    throw new AppError("card_invalid");
  }
  if (outcome === "retry") throw new AppError("payment_retry");
}
