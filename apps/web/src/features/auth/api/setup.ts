import { MeWithOrgs, type SetupRequest, SetupStatus } from "@moonport/contracts";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { meQueryOptions } from "./get-me.ts";

export const setupStatusQueryOptions = () =>
  queryOptions({
    queryKey: ["setup-status"],
    queryFn: ({ signal }) => api("/api/setup/status", { schema: SetupStatus, signal }),
  });

export function useSetupStatus() {
  return useQuery(setupStatusQueryOptions());
}

/** Creates the operator account from the one-time setup link. */
export function useSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetupRequest) => api("/api/setup", { body }),
    onSuccess: (data) => {
      queryClient.clear();
      const me = MeWithOrgs.safeParse(data);
      if (me.success) queryClient.setQueryData(meQueryOptions().queryKey, me.data);
    },
  });
}
