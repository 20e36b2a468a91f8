import { ProjectMemberCandidates } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectApi, projectKeys } from "./query-keys.ts";

/** GET …/projects/:projectId/member-candidates (organization members not yet in the project) */
export const projectCandidatesQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: projectKeys.candidates(orgId, projectId),
    queryFn: () =>
      api(`${projectApi(orgApi(orgId), projectId)}/member-candidates`, { schema: ProjectMemberCandidates }),
  });
