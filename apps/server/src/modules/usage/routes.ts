import { Consumption, ConsumptionQuery, OrgIdParams, UsageLimits } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { App } from "../../http/route.ts";
import { requireUser } from "../../http/session.ts";
import { getConsumption } from "./get-consumption.ts";
import { getUsageLimits } from "./get-usage-limits.ts";

export default async function usageRoutes(app: App, ctx: AppContext) {
  app.get("/orgs/:orgId/limits", { schema: { params: OrgIdParams, response: { 200: UsageLimits } } }, async (req) =>
    getUsageLimits({ ctx, userId: requireUser(req).userId, orgId: req.params.orgId }),
  );

  app.get(
    "/orgs/:orgId/consumption",
    { schema: { params: OrgIdParams, querystring: ConsumptionQuery, response: { 200: Consumption } } },
    async (req) => getConsumption({ ctx, userId: requireUser(req).userId, orgId: req.params.orgId, ...req.query }),
  );
}
