import { ApiErrorBody } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { ApiError } from "../../../lib/api.ts";
import { fileKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/files/:fileId/content — the extracted text (text/plain, so not through `api()`). */
export const fileContentQuery = (orgId: string, fileId: string) =>
  queryOptions({
    queryKey: fileKeys.content(orgId, fileId),
    queryFn: async ({ signal }) => {
      const res = await fetch(`${orgApi(orgId)}/files/${encodeURIComponent(fileId)}/content`, {
        credentials: "same-origin",
        signal,
      });
      if (res.ok) return res.text();
      const parsed = ApiErrorBody.safeParse(await res.json().catch(() => undefined));
      const err = parsed.success ? parsed.data.error : undefined;
      throw new ApiError(res.status, err?.code ?? "network", err?.message ?? res.statusText, err?.details);
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
