import { ProjectPage } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { playgroundKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/projects?status=active: the projects the caller can run the playground in. */
export const playgroundProjectsQuery = (orgId: string) =>
  queryOptions({
    queryKey: playgroundKeys.projects(orgId),
    queryFn: () =>
      api(`${orgApi(orgId)}/projects${queryString({ page: 1, pageSize: 100, status: "active" })}`, {
        schema: ProjectPage,
      }),
    select: (page) => page.items.map((p) => ({ value: p.id, label: p.name, isDefault: p.isDefault })),
  });
