import { MeWithOrgs } from "@moonport/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, api } from "../../../lib/api.ts";

export const meQueryOptions = () =>
  queryOptions({
    queryKey: ["me"],
    queryFn: ({ signal }) => api("/api/me", { schema: MeWithOrgs, signal }),
  });

/** The signed-in user with their organizations; `error` is a 401 ApiError when signed out. */
export function useMe() {
  return useQuery(meQueryOptions());
}

export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
