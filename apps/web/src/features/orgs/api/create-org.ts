import { type CreateOrgRequest, CreateOrgResponse } from "@moonport/contracts";
import { useInvalidatingMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/orgs: the caller switches to the new organization, so every cached read is stale. */
export const useCreateOrg = () =>
  useInvalidatingMutation([], (body: CreateOrgRequest) => api("/api/orgs", { body, schema: CreateOrgResponse }));
