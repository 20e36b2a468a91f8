import { EDITION_TIME_ZONE, type OrgGeneral } from "@moonport/contracts";
import type { OrgAccess } from "../../http/org-access.ts";

/** General information of an organization the caller belongs to (access: organization members). */
export async function getOrganization(opts: { access: OrgAccess }): Promise<OrgGeneral> {
  return toOrgGeneral(opts.access);
}

export function toOrgGeneral({ org, role }: Pick<OrgAccess, "org" | "role">): OrgGeneral {
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
