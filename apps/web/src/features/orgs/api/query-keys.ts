import { orgKey } from "../../../components/console-kit/org-api.ts";

/** Cache keys of the organization's own reads. */
export const orgKeys = {
  general: (orgId: string) => [...orgKey(orgId), "general"] as const,
  verification: (orgId: string) => [...orgKey(orgId), "verification"] as const,
};
