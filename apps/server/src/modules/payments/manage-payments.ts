import type { Payment, PaymentPage, PaymentStatus, PayType } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { applyChargeOutcome } from "./create-payment.ts";
import { toPayment } from "./payment-view.ts";
import { requireProvider } from "./providers/index.ts";

const p = schema.payments;
const c = schema.paymentCards;

async function cardsOf(ctx: AppContext, rows: (typeof p.$inferSelect)[]) {
  const ids = rows.map((r) => r.cardId).filter((id): id is string => !!id);
  if (!ids.length) return new Map<string, { brand: string; last4: string }>();
  const cards = await ctx.db.select({ id: c.id, brand: c.brand, last4: c.last4 }).from(c).where(inArray(c.id, ids));
  return new Map(cards.map((x) => [x.id, { brand: x.brand, last4: x.last4 }]));
}

/** Recharge details: newest first, filtered by status and pay type. */
export async function listPayments(opts: {
  ctx: AppContext;
  access: OrgAccess;
  query: { page: number; pageSize: number; status?: PaymentStatus; paymentType?: PayType };
}): Promise<PaymentPage> {
  const { ctx, access, query } = opts;
  const where: SQL[] = [eq(p.orgId, access.org.id)];
  if (query.status) where.push(eq(p.status, query.status));
  if (query.paymentType) where.push(eq(p.payType, query.paymentType));
  const [total] = await ctx.db
    .select({ n: count() })
    .from(p)
    .where(and(...where));
  const rows = await ctx.db
    .select()
    .from(p)
    .where(and(...where))
    .orderBy(desc(p.createdAt), desc(p.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const cards = await cardsOf(ctx, rows);
  return {
    items: rows.map((r) => toPayment(ctx, r, r.cardId ? (cards.get(r.cardId) ?? null) : null)),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function findPayment(ctx: AppContext, access: OrgAccess, paymentId: string) {
  const [row] = await ctx.db
    .select()
    .from(p)
    .where(and(eq(p.id, paymentId), eq(p.orgId, access.org.id)));
  if (!row) throw new AppError("not_found");
  return row;
}

/** One order, as the console's order panel polls it. */
export async function getPayment(opts: { ctx: AppContext; access: OrgAccess; paymentId: string }): Promise<Payment> {
  const row = await findPayment(opts.ctx, opts.access, opts.paymentId);
  const cards = await cardsOf(opts.ctx, [row]);
  return toPayment(opts.ctx, row, row.cardId ? (cards.get(row.cardId) ?? null) : null);
}

/** Cancels a waiting order (→ closed). A payment the provider confirms afterwards is flagged, never credited twice. */
export async function cancelPayment(opts: { ctx: AppContext; access: OrgAccess; paymentId: string }): Promise<Payment> {
  const { ctx } = opts;
  await findPayment(ctx, opts.access, opts.paymentId);
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .update(p)
    .set({ status: "closed", finishedAt: now, failureReason: "cancelled" })
    .where(and(eq(p.id, opts.paymentId), eq(p.status, "waiting")))
    .returning();
  if (!row) throw new AppError("payment_not_cancellable");
  return toPayment(ctx, row, null);
}

/** Continues a waiting card order (after a retryable processing error): charges the bound card again. */
export async function continuePayment(opts: {
  ctx: AppContext;
  access: OrgAccess;
  paymentId: string;
}): Promise<Payment> {
  const { ctx } = opts;
  const row = await findPayment(ctx, opts.access, opts.paymentId);
  if (row.status !== "waiting") throw new AppError("payment_not_cancellable");
  if (row.payType !== "credit_card" || !row.cardId) return getPayment(opts);
  const [card] = await ctx.db.select().from(c).where(eq(c.id, row.cardId));
  if (!card) {
    await applyChargeOutcome(ctx, row, "declined", ctx.clock.now());
    throw new AppError("card_invalid");
  }
  const outcome = await requireProvider(ctx, card.provider).chargeCard!(row, card);
  await applyChargeOutcome(ctx, row, outcome, ctx.clock.now());
  return toPayment(ctx, row, { brand: card.brand, last4: card.last4 });
}
