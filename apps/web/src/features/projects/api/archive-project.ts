import { ProjectDetail } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectApi } from "./query-keys.ts";

/** POST …/projects/:projectId/archive { confirmName } */
export const useArchiveProject = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, (confirmName: string) =>
    api(`${projectApi(orgApi(orgId), projectId)}/archive`, { body: { confirmName }, schema: ProjectDetail }),
  );
