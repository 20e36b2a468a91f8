import { CreateOrgResponse } from "@moonport/contracts";
import { useInvalidatingMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/orgs: the caller switches to the new organization, so every cached read is stale. */
export const useCreateOrg = () =>
  useInvalidatingMutation([], (name: string) => api("/api/orgs", { body: { name }, schema: CreateOrgResponse }));
