import { OkResponse, type ProjectRole } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectApi } from "./query-keys.ts";

/** PATCH …/projects/:projectId/members/:userId */
export const useUpdateProjectMember = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, ({ userId, role }: { userId: string; role: ProjectRole }) =>
    api(`${projectApi(orgApi(orgId), projectId)}/members/${encodeURIComponent(userId)}`, {
      method: "PATCH",
      body: { role },
      schema: OkResponse,
    }),
  );
