import type { Customer, PaymentCard } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { providerForPayType, providerNamed } from "./providers/index.ts";

const c = schema.paymentCards;

function view(row: typeof c.$inferSelect): PaymentCard {
  return {
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    expMonth: row.expMonth,
    expYear: row.expYear,
    holder: `${row.customer.firstName ?? ""} ${row.customer.lastName ?? ""}`.trim(),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listCards(opts: { ctx: AppContext; access: OrgAccess }): Promise<{ items: PaymentCard[] }> {
  const rows = await opts.ctx.db.select().from(c).where(eq(c.orgId, opts.access.org.id)).orderBy(asc(c.createdAt));
  return { items: rows.map(view) };
}

/**
 * Binds a card from the provider's token (the browser sent the number and CVC to the provider, never to us) and
 * the customer information the provider needs. A token the provider did not issue is "card information is wrong".
 */
export async function bindCard(opts: {
  ctx: AppContext;
  access: OrgAccess;
  token: string;
  customer: Customer;
}): Promise<PaymentCard> {
  const { ctx, access } = opts;
  if (access.org.edition !== "global") throw new AppError("pay_type_unavailable");
  const provider = providerForPayType(ctx, "credit_card");
  if (!provider) throw new AppError("pay_type_not_configured");
  let card: Awaited<ReturnType<NonNullable<typeof provider.saveCard>>>;
  try {
    card = await provider.saveCard!(opts.token, opts.customer, access.org.id);
  } catch (err) {
    ctx.log.warn({ provider: provider.name, err: (err as Error).name }, "card not saved: provider error");
    throw new AppError("payment_provider_unavailable");
  }
  if (!card) throw new AppError("card_invalid");
  const [row] = await ctx.db
    .insert(c)
    .values({
      id: newId("card"),
      orgId: access.org.id,
      provider: provider.name,
      token: card.token,
      providerCustomer: card.customerRef,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      customer: opts.customer,
      createdBy: access.userId,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError("conflict", { params: { reason: "card already bound" } });
  return view(row);
}

/** Removes a bound card; refused while a waiting order would still charge it. */
export async function deleteCard(opts: { ctx: AppContext; access: OrgAccess; cardId: string }): Promise<void> {
  const { ctx, access } = opts;
  const [card] = await ctx.db
    .select()
    .from(c)
    .where(and(eq(c.id, opts.cardId), eq(c.orgId, access.org.id)));
  if (!card) throw new AppError("not_found");
  const [waiting] = await ctx.db
    .select({ id: schema.payments.id })
    .from(schema.payments)
    .where(and(eq(schema.payments.cardId, card.id), eq(schema.payments.status, "waiting")))
    .limit(1);
  if (waiting) throw new AppError("card_delete_failed");
  await ctx.db.delete(c).where(eq(c.id, card.id));
  // Detach at the provider too (a saved card should not outlive its removal here); best effort.
  await providerNamed(ctx, card.provider)?.removeCard?.(card);
}
