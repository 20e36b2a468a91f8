import { AdminOrganizationPage, AdminOrganizationsQuery } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { App } from "../../http/route.ts";
import { listOrganizations } from "./list-organizations.ts";

/**
 * The back office, mounted at /api/admin. Every route here is `operator`: anyone else gets the answer of a
 * missing route (http/access.ts).
 */
export default async function adminRoutes(app: App, ctx: AppContext) {
  app.get(
    "/organizations",
    {
      config: { access: "operator" },
      schema: { querystring: AdminOrganizationsQuery, response: { 200: AdminOrganizationPage } },
    },
    async (req) => listOrganizations({ db: ctx.db, ...req.query, now: ctx.clock.now() }),
  );
}
