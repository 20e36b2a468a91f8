import { orgKey } from "../../../components/console-kit/org-api.ts";

/** Cache keys of member and invitation reads. */
export const memberKeys = {
  list: (orgId: string, page: number, pageSize: number) => [...orgKey(orgId), "members", page, pageSize] as const,
  invitation: (token: string) => ["invitation", token] as const,
};
