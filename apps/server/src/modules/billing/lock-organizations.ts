import type { Edition } from "@moonport/contracts";
import { schema, type Tx } from "@moonport/db";
import { eq, inArray, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";

type Organization = typeof schema.organizations.$inferSelect;

/**
 * Every writer of balances locks organizations first, in id order, then their vouchers: no deadlocks. Returns the
 * locked organizations' editions (the bill writer's local days), read by the lock at no extra cost.
 */
export async function lockOrganizations(tx: Tx, orgIds: string[]): Promise<Map<string, Edition>> {
  const editions = new Map<string, Edition>();
  if (!orgIds.length) return editions;
  const locked = await tx.execute(
    sql`select id, edition from ${schema.organizations} where ${inArray(schema.organizations.id, orgIds)} order by ${schema.organizations.id} for update`,
  );
  for (const r of (locked as unknown as { rows: { id: string; edition: Edition }[] }).rows)
    editions.set(r.id, r.edition);
  return editions;
}

/**
 * One organization's row, locked for the rest of the transaction (verification changes are serialized with the
 * balance writers on the same lock); `not_found` when it does not exist.
 */
export async function lockOrganization(tx: Tx, orgId: string): Promise<Organization> {
  const [org] = await tx.select().from(schema.organizations).where(eq(schema.organizations.id, orgId)).for("update");
  if (!org) throw new AppError("not_found");
  return org;
}
