import { queryOptions } from "@tanstack/react-query";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { apiText } from "../../../lib/api.ts";
import { fileKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/files/:fileId/content — the extracted text (text/plain). */
export const fileContentQuery = (orgId: string, fileId: string) =>
  queryOptions({
    queryKey: fileKeys.content(orgId, fileId),
    queryFn: ({ signal }) => apiText(`${orgApi(orgId)}/files/${encodeURIComponent(fileId)}/content`, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
