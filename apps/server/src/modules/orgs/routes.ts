import {
  CreateOrgRequest,
  CreateOrgResponse,
  OrgGeneral,
  OrgIdParams,
  OrgOverview,
  resolveEdition,
  UpdateOrgRequest,
} from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type App, callerAuth, orgAccess } from "../../http/route.ts";
import { createAdditionalOrganization } from "./create-additional-organization.ts";
import { getOrganization } from "./get-organization.ts";
import { getOrganizationOverview } from "./get-organization-overview.ts";
import { grantDevBalance } from "./grant-dev-balance.ts";
import { updateOrganization } from "./update-organization.ts";

export default async function orgRoutes(app: App, ctx: AppContext) {
  app.post(
    "/orgs",
    { config: { access: "user" }, schema: { body: CreateOrgRequest, response: { 201: CreateOrgResponse } } },
    async (req, reply) => {
      const { userId } = callerAuth(req);
      const edition =
        req.body.edition ?? resolveEdition({ host: req.headers.host, locale: req.locale, hosts: ctx.config.sites });
      reply.status(201);
      return createAdditionalOrganization({ ctx, userId, name: req.body.name, edition });
    },
  );

  app.get(
    "/orgs/:orgId",
    { config: { access: "orgMember" }, schema: { params: OrgIdParams, response: { 200: OrgGeneral } } },
    async (req) => getOrganization({ access: orgAccess(req) }),
  );

  app.patch(
    "/orgs/:orgId",
    {
      config: { access: "orgAdmin" },
      schema: { params: OrgIdParams, body: UpdateOrgRequest, response: { 200: OrgGeneral } },
    },
    async (req) => updateOrganization({ ctx, access: orgAccess(req), name: req.body.name }),
  );

  app.get(
    "/orgs/:orgId/overview",
    {
      config: { access: "orgMember", readsBills: true },
      schema: { params: OrgIdParams, response: { 200: OrgOverview } },
    },
    async (req) => getOrganizationOverview({ ctx, access: orgAccess(req) }),
  );

  // Development seam, registered only with DEV_SEAMS=true (refused in production), loopback clients only.
  if (ctx.config.devSeams) {
    app.post(
      "/dev/orgs/:orgId/grant",
      {
        config: { access: "orgAdmin", loopbackOnly: true },
        schema: {
          params: OrgIdParams,
          body: z.object({ amount: z.string() }),
          response: { 200: z.object({ cashBalance: z.string() }) },
        },
      },
      async (req) => grantDevBalance({ ctx, access: orgAccess(req), amount: req.body.amount }),
    );
  }
}
