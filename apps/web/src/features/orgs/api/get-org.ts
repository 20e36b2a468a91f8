import { OrgGeneral } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { orgKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId */
export const orgQuery = (orgId: string) =>
  queryOptions({ queryKey: orgKeys.general(orgId), queryFn: () => api(orgApi(orgId), { schema: OrgGeneral }) });
