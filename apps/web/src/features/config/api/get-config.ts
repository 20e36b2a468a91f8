import { PublicConfig } from "@moonport/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";

export const configQueryOptions = () =>
  queryOptions({
    queryKey: ["config"],
    queryFn: ({ signal }) => api("/api/config", { schema: PublicConfig, signal }),
    // The edition and brand only change with a redeploy (or a locale switch, which reloads the page).
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Brand and edition of this request; undefined while loading and during prerendering. */
export function useConfig() {
  return useQuery(configQueryOptions()).data;
}

/** Brand name for display: the server's BRAND_NAME once known. */
export const DEFAULT_BRAND = "Moonport";
export function useBrand(): string {
  return useConfig()?.brandName ?? DEFAULT_BRAND;
}
