import {
  type CompanyVerificationRequest,
  type PersonalVerificationRequest,
  VerificationStatus,
} from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { orgKeys } from "./query-keys.ts";

const base = (orgId: string) => `${orgApi(orgId)}/verification`;

/** GET /api/orgs/:orgId/verification (organization admins: the applications hold ID and bank details). */
export const verificationQuery = (orgId: string) =>
  queryOptions({
    queryKey: orgKeys.verification(orgId),
    queryFn: () => api(base(orgId), { schema: VerificationStatus }),
  });

/** POST …/verification/personal */
export const useApplyPersonal = (orgId: string) =>
  useOrgMutation(orgId, (body: PersonalVerificationRequest) =>
    api(`${base(orgId)}/personal`, { body, schema: VerificationStatus }),
  );

/** POST …/verification/company (the upgrade from personal; it waits for review) */
export const useApplyCompany = (orgId: string) =>
  useOrgMutation(orgId, (body: CompanyVerificationRequest) =>
    api(`${base(orgId)}/company`, { body, schema: VerificationStatus }),
  );

/** POST …/verification/cancel (a company change in progress back to personal) */
export const useCancelCompanyChange = (orgId: string) =>
  useOrgMutation(orgId, () => api(`${base(orgId)}/cancel`, { method: "POST", schema: VerificationStatus }));

/** The algorithm-filing authorization letter (served when the status says it is allowed). */
export const filingLetterUrl = (orgId: string) => `${base(orgId)}/filing-letter.pdf`;
