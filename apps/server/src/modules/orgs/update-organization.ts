import type { OrgGeneral } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { assertOrgAdmin, getOrgAccess } from "./access.ts";
import { getOrganization } from "./get-organization.ts";

/** Renames an organization (organization admins only). */
export async function updateOrganization(opts: {
  ctx: AppContext;
  userId: string;
  orgId: string;
  name: string;
}): Promise<OrgGeneral> {
  const access = await getOrgAccess(opts.ctx.db, opts);
  assertOrgAdmin(access);
  await opts.ctx.db
    .update(schema.organizations)
    .set({ name: opts.name })
    .where(eq(schema.organizations.id, opts.orgId));
  return getOrganization(opts);
}
