import {
  ContactSalesReceipt,
  type ContactSalesRequest,
  MeWithOrgs,
  OrgGeneral,
  OrgOverview,
} from "@moonport/contracts";
import { useMutation, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { useSignedIn } from "../../../lib/session.ts";

/** POST /api/contact-sales (public; the session, when there is one, is recorded with the lead). */
export function useSubmitContactSales() {
  return useMutation({
    mutationFn: (body: ContactSalesRequest) => api("/api/contact-sales", { body, schema: ContactSalesReceipt }),
  });
}

/**
 * What the form can fill in for a signed-in visitor: their current organization's id, whether it is at Tier5 and
 * whether it is company-verified (then the form does not ask).
 * Asked only once the session query says they are signed in, so anonymous visitors make no further request.
 */
export function useSignedInOrganization() {
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: ["contact-sales", "organization"],
    enabled: signedIn === true,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const me = await api("/api/me", { schema: MeWithOrgs });
      const orgId = me.currentOrganizationId;
      if (!orgId) return null;
      const [overview, general] = await Promise.all([
        api(`/api/orgs/${orgId}/overview`, { schema: OrgOverview }),
        api(`/api/orgs/${orgId}`, { schema: OrgGeneral }),
      ]);
      // "company_changing" is a personal verification whose company application is still pending: not certified.
      const certified = general.verification === "company";
      return { orgId, tier5: overview.tier.tier >= 5, certified };
    },
  });
}
