import { ProjectDetail, type UpdateProjectRequest } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectApi } from "./query-keys.ts";

/** PATCH …/projects/:projectId */
export const useUpdateProject = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, (body: UpdateProjectRequest) =>
    api(projectApi(orgApi(orgId), projectId), { method: "PATCH", body, schema: ProjectDetail }),
  );
