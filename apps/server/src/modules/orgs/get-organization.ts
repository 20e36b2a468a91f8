import { EDITION_TIME_ZONE, type OrgGeneral } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { getOrgAccess } from "./access.ts";

/** General information of an organization the caller belongs to. */
export async function getOrganization(opts: { ctx: AppContext; userId: string; orgId: string }): Promise<OrgGeneral> {
  const { org, role } = await getOrgAccess(opts.ctx.db, opts);
  return {
    id: org.id,
    name: org.name,
    edition: org.edition,
    currency: org.currency,
    timeZone: EDITION_TIME_ZONE[org.edition],
    personal: org.personal,
    verification: org.verification,
    createdAt: org.createdAt.toISOString(),
    role,
  };
}
