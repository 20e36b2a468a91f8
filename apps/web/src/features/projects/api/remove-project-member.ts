import { OkResponse } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectApi } from "./query-keys.ts";

/** DELETE …/projects/:projectId/members/:userId */
export const useRemoveProjectMember = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, (userId: string) =>
    api(`${projectApi(orgApi(orgId), projectId)}/members/${encodeURIComponent(userId)}`, {
      method: "DELETE",
      schema: OkResponse,
    }),
  );
