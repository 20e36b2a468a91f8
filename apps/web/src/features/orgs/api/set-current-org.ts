import { MeWithOrgs, type SetCurrentOrgRequest } from "@moonport/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { meQueryOptions } from "../../auth/api/get-me.ts";

/** Switches the organization the console shows; the choice is stored server-side, so it persists. */
export function useSetCurrentOrg() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetCurrentOrgRequest) => api("/api/me/current-org", { method: "PUT", body }),
    onSuccess: async (data) => {
      const me = MeWithOrgs.safeParse(data);
      // Everything below the organization (projects, keys, billing …) belongs to the old one: refetch it all.
      await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== "me" && q.queryKey[0] !== "config" });
      if (me.success) queryClient.setQueryData(meQueryOptions().queryKey, me.data);
      else await queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
    },
  });
}
