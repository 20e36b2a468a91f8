import { orgKey } from "../../../components/console-kit/org-api.ts";

/** Cache keys of context-cache reads, under the organization's root key. */
export const cacheKeys = {
  list: (orgId: string, page: number, pageSize: number) =>
    [...orgKey(orgId), "caches", "list", page, pageSize] as const,
};
