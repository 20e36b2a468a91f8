import { AlertSettings, OrgIdParams, UpdateAlertSettingsRequest } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess } from "../../http/route.ts";
import { getAlertSettings, updateAlertSettings } from "./alert-settings.ts";

/** Alert settings: organization admins only (they decide who is e-mailed about the organization's money). */
export default async function alertRoutes(app: App, ctx: AppContext) {
  app.get(
    "/orgs/:orgId/alerts",
    { config: { access: "orgAdmin" }, schema: { params: OrgIdParams, response: { 200: AlertSettings } } },
    async (req) => getAlertSettings({ ctx, access: orgAccess(req) }),
  );

  app.put(
    "/orgs/:orgId/alerts",
    {
      config: { access: "orgAdmin" },
      schema: { params: OrgIdParams, body: UpdateAlertSettingsRequest, response: { 200: AlertSettings } },
    },
    async (req) => updateAlertSettings({ ctx, access: orgAccess(req), locale: req.locale, body: req.body }),
  );
}
