import { orgKey } from "../../../components/console-kit/org-api.ts";

/** Cache keys of file reads, all under the organization's root key. */
export const fileKeys = {
  list: (orgId: string, q: string, page: number, pageSize: number) =>
    [...orgKey(orgId), "files", "list", q, page, pageSize] as const,
  content: (orgId: string, fileId: string) => [...orgKey(orgId), "files", "content", fileId] as const,
  projectOptions: (orgId: string) => [...orgKey(orgId), "files", "project-options"] as const,
};
