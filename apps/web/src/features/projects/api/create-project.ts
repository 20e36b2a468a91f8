import { type CreateProjectRequest, ProjectRow } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/orgs/:orgId/projects */
export const useCreateProject = (orgId: string) =>
  useOrgMutation(orgId, (body: CreateProjectRequest) => api(`${orgApi(orgId)}/projects`, { body, schema: ProjectRow }));
