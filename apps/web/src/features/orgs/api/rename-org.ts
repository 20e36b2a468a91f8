import { OrgGeneral } from "@moonport/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { orgApi, orgKey } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/**
 * PATCH /api/orgs/:orgId { name }. Besides the organization's reads, the signed-in user's (`["me"]`) is refreshed:
 * it lists the organizations by name for the header's switcher.
 */
export function useRenameOrg(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api(orgApi(orgId), { method: "PATCH", body: { name }, schema: OrgGeneral }),
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: orgKey(orgId) }),
        qc.invalidateQueries({ queryKey: ["me"] }),
      ]);
    },
  });
}
