/**
 * Console route of the Context Caching screen. Its figures are spend, so like the bills it is for organization
 * admins (as the bills routes, modules/bills/routes.ts); caches themselves are created and used through /v1 with a key.
 */
import { CachePage, ListCachesQuery, OrgIdParams } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess } from "../../http/route.ts";
import { listConsoleCaches } from "./list-console-caches.ts";

export default async function cacheRoutes(app: App, ctx: AppContext) {
  app.get(
    "/orgs/:orgId/context-caches",
    {
      config: { access: "orgAdmin", readsBills: true },
      schema: { params: OrgIdParams, querystring: ListCachesQuery, response: { 200: CachePage } },
    },
    async (req) => listConsoleCaches({ ctx, access: orgAccess(req), ...req.query }),
  );
}
