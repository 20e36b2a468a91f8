import { ProjectBilling } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectApi, projectKeys } from "./query-keys.ts";

/** GET …/projects/:projectId/billing?month= */
export const projectBillingQuery = (orgId: string, projectId: string, month: string) =>
  queryOptions({
    queryKey: projectKeys.billing(orgId, projectId, month),
    queryFn: () =>
      api(`${projectApi(orgApi(orgId), projectId)}/billing${queryString({ month })}`, { schema: ProjectBilling }),
  });
