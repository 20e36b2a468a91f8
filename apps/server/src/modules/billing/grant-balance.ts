import { type Db, newId, schema } from "@moonport/db";
import { eq, sql } from "drizzle-orm";

/**
 * Credits cash to an organization as a recorded operator grant: one ledger entry (kind "grant") and the balance
 * change in one transaction. A grant is not a recharge, so it does not raise the rate-limit tier. Callers that
 * run next to a gateway should then call `keyEvents.invalidate({ orgId })` so admission sees it at once.
 */
export async function grantBalance(opts: {
  db: Db;
  orgId: string;
  amount: bigint;
  note: string;
  createdBy: string;
}): Promise<{ ledgerId: string; cashBalance: bigint }> {
  if (opts.amount <= 0n) throw new RangeError("a grant must be a positive amount");
  return opts.db.transaction(async (tx) => {
    const ledgerId = newId("led");
    await tx.insert(schema.ledgerEntries).values({
      id: ledgerId,
      orgId: opts.orgId,
      kind: "grant",
      cashDelta: opts.amount,
      note: opts.note,
      createdBy: opts.createdBy,
    });
    const [row] = await tx
      .update(schema.organizations)
      .set({ cashBalance: sql`${schema.organizations.cashBalance} + ${opts.amount.toString()}::bigint` })
      .where(eq(schema.organizations.id, opts.orgId))
      .returning({ cashBalance: schema.organizations.cashBalance });
    if (!row) throw new Error(`organization ${opts.orgId} not found`);
    return { ledgerId, cashBalance: row.cashBalance };
  });
}
