import { type MeWithOrgs, maskPhone } from "@moonport/contracts";
import { type Db, schema, type Tx } from "@moonport/db";
import { asc, eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";

/**
 * The signed-in user with the organizations they belong to. The current organization is the stored one while
 * the user is still a member there, otherwise their first organization.
 */
export async function getMe(opts: { db: Db | Tx; userId: string }): Promise<MeWithOrgs> {
  const { db, userId } = opts;
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, userId));
  if (!user) throw new AppError("unauthenticated");
  const orgs = await db
    .select({
      id: schema.organizations.id,
      name: schema.organizations.name,
      role: schema.orgMembers.role,
      personal: schema.organizations.personal,
      currency: schema.organizations.currency,
    })
    .from(schema.orgMembers)
    .innerJoin(schema.organizations, eq(schema.organizations.id, schema.orgMembers.orgId))
    .where(eq(schema.orgMembers.userId, userId))
    .orderBy(asc(schema.orgMembers.createdAt), asc(schema.organizations.id));
  const current = orgs.find((o) => o.id === user.currentOrgId)?.id ?? orgs[0]?.id ?? null;
  return {
    id: user.id,
    username: user.username,
    phoneMasked: user.phone ? maskPhone(user.phone) : null,
    hasPassword: Boolean(user.passwordHash),
    role: user.role,
    createdAt: user.createdAt.toISOString(),
    currentOrganizationId: current,
    organizations: orgs,
  };
}
