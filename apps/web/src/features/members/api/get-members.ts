import { MemberPage } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { memberKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/members?page=&pageSize= (members and pending invitations) */
export const membersQuery = (orgId: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: memberKeys.list(orgId, page, pageSize),
    queryFn: () => api(`${orgApi(orgId)}/members${queryString({ page, pageSize })}`, { schema: MemberPage }),
  });
