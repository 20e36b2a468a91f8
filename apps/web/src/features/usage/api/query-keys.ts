import { orgKey } from "../../../components/console-kit/org-api.ts";

/** Cache keys of the usage reads, all under the organization's root key. */
export const usageKeys = {
  overview: (orgId: string) => [...orgKey(orgId), "overview"] as const,
  limits: (orgId: string) => [...orgKey(orgId), "limits"] as const,
  consumption: (orgId: string, granularity: "year" | "month", period: string) =>
    [...orgKey(orgId), "consumption", granularity, period] as const,
};
