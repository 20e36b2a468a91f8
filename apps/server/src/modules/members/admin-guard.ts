import { schema, type Tx } from "@moonport/db";
import { and, count, eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";

/**
 * Call inside the transaction before demoting or removing `userId`. Locking the organization row serializes
 * concurrent demotions, so two admins demoting each other cannot leave the organization without one.
 */
export async function assertNotLastAdmin(tx: Tx, orgId: string, userId: string): Promise<void> {
  await tx
    .select({ id: schema.organizations.id })
    .from(schema.organizations)
    .where(eq(schema.organizations.id, orgId))
    .for("update");
  const [target] = await tx
    .select({ role: schema.orgMembers.role })
    .from(schema.orgMembers)
    .where(and(eq(schema.orgMembers.orgId, orgId), eq(schema.orgMembers.userId, userId)));
  if (target?.role !== "admin") return;
  const [admins] = await tx
    .select({ n: count() })
    .from(schema.orgMembers)
    .where(and(eq(schema.orgMembers.orgId, orgId), eq(schema.orgMembers.role, "admin")));
  if ((admins?.n ?? 0) <= 1) throw new AppError("last_admin");
}
