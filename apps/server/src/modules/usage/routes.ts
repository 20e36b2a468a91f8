import { Consumption, ConsumptionQuery, OrgIdParams, UsageLimits } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess } from "../../http/route.ts";
import { getConsumption } from "./get-consumption.ts";
import { getUsageLimits } from "./get-usage-limits.ts";

export default async function usageRoutes(app: App, ctx: AppContext) {
  app.get(
    "/orgs/:orgId/limits",
    {
      config: { access: "orgMember", readsBills: true },
      schema: { params: OrgIdParams, response: { 200: UsageLimits } },
    },
    async (req) => getUsageLimits({ ctx, access: orgAccess(req) }),
  );

  app.get(
    "/orgs/:orgId/consumption",
    {
      config: { access: "orgMember", readsBills: true },
      schema: { params: OrgIdParams, querystring: ConsumptionQuery, response: { 200: Consumption } },
    },
    async (req) => getConsumption({ ctx, access: orgAccess(req), ...req.query }),
  );
}
