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
import { loopbackOnly } from "../../http/dev-seams.ts";
import type { App } from "../../http/route.ts";
import { requireUser } from "../../http/session.ts";
import { createAdditionalOrganization } from "./create-additional-organization.ts";
import { getOrganization } from "./get-organization.ts";
import { getOrganizationOverview } from "./get-organization-overview.ts";
import { grantDevBalance } from "./grant-dev-balance.ts";
import { updateOrganization } from "./update-organization.ts";

export default async function orgRoutes(app: App, ctx: AppContext) {
  app.post(
    "/orgs",
    { schema: { body: CreateOrgRequest, response: { 201: CreateOrgResponse } } },
    async (req, reply) => {
      const { userId } = requireUser(req);
      const edition = resolveEdition({ host: req.headers.host, locale: req.locale, hosts: ctx.config.sites });
      reply.status(201);
      return createAdditionalOrganization({ ctx, userId, name: req.body.name, edition });
    },
  );

  app.get("/orgs/:orgId", { schema: { params: OrgIdParams, response: { 200: OrgGeneral } } }, async (req) =>
    getOrganization({ ctx, userId: requireUser(req).userId, orgId: req.params.orgId }),
  );

  app.patch(
    "/orgs/:orgId",
    { schema: { params: OrgIdParams, body: UpdateOrgRequest, response: { 200: OrgGeneral } } },
    async (req) =>
      updateOrganization({ ctx, userId: requireUser(req).userId, orgId: req.params.orgId, name: req.body.name }),
  );

  app.get("/orgs/:orgId/overview", { schema: { params: OrgIdParams, response: { 200: OrgOverview } } }, async (req) =>
    getOrganizationOverview({ ctx, userId: requireUser(req).userId, orgId: req.params.orgId }),
  );

  // Development seam, registered only with DEV_SEAMS=true (refused in production), loopback clients only.
  if (ctx.config.devSeams) {
    app.post(
      "/dev/orgs/:orgId/grant",
      {
        onRequest: loopbackOnly,
        schema: {
          params: OrgIdParams,
          body: z.object({ amount: z.string() }),
          response: { 200: z.object({ cashBalance: z.string() }) },
        },
      },
      async (req) =>
        grantDevBalance({ ctx, userId: requireUser(req).userId, orgId: req.params.orgId, amount: req.body.amount }),
    );
  }
}
