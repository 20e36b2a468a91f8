import { ProjectPage } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { fileKeys } from "./query-keys.ts";

/** The active projects the caller belongs to (an upload may be recorded for one of them). */
export const fileProjectOptionsQuery = (orgId: string) =>
  queryOptions({
    queryKey: fileKeys.projectOptions(orgId),
    queryFn: () =>
      api(`${orgApi(orgId)}/projects${queryString({ page: 1, pageSize: 100, status: "active" })}`, {
        schema: ProjectPage,
      }),
    select: (page) => page.items.map((p) => ({ value: p.id, label: p.name })),
  });
