import type { OrgGeneral } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { toOrgGeneral } from "./get-organization.ts";

/** Renames an organization (access: organization admins, declared by the route). */
export async function updateOrganization(opts: {
  ctx: AppContext;
  access: OrgAccess;
  name: string;
}): Promise<OrgGeneral> {
  const { access } = opts;
  const [org] = await opts.ctx.db
    .update(schema.organizations)
    .set({ name: opts.name })
    .where(eq(schema.organizations.id, access.org.id))
    .returning();
  return toOrgGeneral({ org: org ?? access.org, role: access.role });
}
