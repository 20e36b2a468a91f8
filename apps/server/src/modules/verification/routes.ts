import {
  CompanyVerificationRequest,
  OrgIdParams,
  PersonalVerificationRequest,
  VerificationStatus,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess } from "../../http/route.ts";
import { applyCompanyVerification, applyPersonalVerification } from "./apply-verification.ts";
import { cancelCompanyChange } from "./cancel-verification.ts";
import { renderFilingLetter } from "./filing-letter.ts";
import { getVerification } from "./get-verification.ts";

/**
 * Organization verification: organization admins only (the applications hold the company's bank details and a
 * person's ID number; members see the state on the organization's general page).
 */
export default async function verificationRoutes(app: App, ctx: AppContext) {
  const schema = (body?: unknown) => ({
    params: OrgIdParams,
    ...(body ? { body } : {}),
    response: { 200: VerificationStatus },
  });

  app.get("/orgs/:orgId/verification", { config: { access: "orgAdmin" }, schema: schema() }, async (req) =>
    getVerification({ ctx, access: orgAccess(req) }),
  );

  app.post(
    "/orgs/:orgId/verification/personal",
    { config: { access: "orgAdmin" }, schema: { ...schema(PersonalVerificationRequest) } },
    async (req) =>
      applyPersonalVerification({ ctx, access: orgAccess(req), body: req.body as PersonalVerificationRequest }),
  );

  app.post(
    "/orgs/:orgId/verification/company",
    { config: { access: "orgAdmin" }, schema: { ...schema(CompanyVerificationRequest) } },
    async (req) =>
      applyCompanyVerification({ ctx, access: orgAccess(req), body: req.body as CompanyVerificationRequest }),
  );

  app.get(
    "/orgs/:orgId/verification/filing-letter.pdf",
    { config: { access: "orgAdmin" }, schema: { params: OrgIdParams } },
    async (req, reply) => {
      const letter = await renderFilingLetter({ ctx, access: orgAccess(req) });
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `attachment; filename="${letter.fileName}"`)
        .header("cache-control", "private, no-store")
        .send(letter.pdf);
    },
  );

  app.post("/orgs/:orgId/verification/cancel", { config: { access: "orgAdmin" }, schema: schema() }, async (req) =>
    cancelCompanyChange({ ctx, access: orgAccess(req) }),
  );
}
