import { OkResponse, type ProjectRole } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectApi } from "./query-keys.ts";

/** POST …/projects/:projectId/members */
export const useAddProjectMember = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, (body: { userId: string; role: ProjectRole }) =>
    api(`${projectApi(orgApi(orgId), projectId)}/members`, { body, schema: OkResponse }),
  );
