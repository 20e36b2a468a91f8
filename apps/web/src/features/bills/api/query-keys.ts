import { orgKey } from "../../../components/console-kit/org-api.ts";

/** Cache keys of the bills reads, under the organization's root key. */
export const billKeys = {
  daily: (orgId: string, from: string, to: string) => [...orgKey(orgId), "bills", "daily", from, to] as const,
  products: (orgId: string, from: string, to: string) => [...orgKey(orgId), "bills", "products", from, to] as const,
  requests: (orgId: string, from: string, to: string) => [...orgKey(orgId), "bills", "requests", from, to] as const,
  exports: (orgId: string, page: number) => [...orgKey(orgId), "bill-exports", page] as const,
  alerts: (orgId: string) => [...orgKey(orgId), "alerts"] as const,
};
