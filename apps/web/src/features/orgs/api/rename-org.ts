import { OrgGeneral } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** PATCH /api/orgs/:orgId { name } */
export const useRenameOrg = (orgId: string) =>
  useOrgMutation(orgId, (name: string) => api(orgApi(orgId), { method: "PATCH", body: { name }, schema: OrgGeneral }));
