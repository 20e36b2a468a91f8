import { ProjectMemberPage } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectApi, projectKeys } from "./query-keys.ts";

/** GET …/projects/:projectId/members?page=&pageSize= */
export const projectMembersQuery = (orgId: string, projectId: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: projectKeys.members(orgId, projectId, page, pageSize),
    queryFn: () =>
      api(`${projectApi(orgApi(orgId), projectId)}/members${queryString({ page, pageSize })}`, {
        schema: ProjectMemberPage,
      }),
  });
