import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";

/** `/api/orgs/:orgId`, the prefix of every organization request. */
export const orgApi = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}`;

/** `?a=1&b=x`, leaving out empty values. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") s.set(k, String(v));
  const str = s.toString();
  return str ? `?${str}` : "";
}

/**
 * Root of every cached read of one organization. Each feature's query-key factory extends it
 * (`[...orgKey(orgId), "projects", …]`), so one invalidation refreshes the organization's screens.
 */
export const orgKey = (orgId: string) => ["org", orgId] as const;

/**
 * A write to an organization: on success every cached read of it is refreshed (they are cheap, and screens show
 * overlapping facts: a new key changes the project overview, a removed member the project members…).
 */
export function useOrgMutation<TVars, TResult>(orgId: string, fn: (vars: TVars) => Promise<TResult>) {
  return useInvalidatingMutation(orgKey(orgId), fn);
}

/** A write that refreshes the reads under `key` (all cached reads when `key` is empty). */
export function useInvalidatingMutation<TVars, TResult>(key: QueryKey, fn: (vars: TVars) => Promise<TResult>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await qc.invalidateQueries(key.length > 0 ? { queryKey: key } : undefined);
    },
  });
}
