import { AdminOrganizationPage, AdminOrganizationsQuery, ConfirmTransferParams } from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type App, callerAuth } from "../../http/route.ts";
import { AppError } from "../../lib/app-error.ts";
import { confirmPayment } from "../billing/settle-payment.ts";
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

  // An operator confirms a corporate transfer (or a flagged payment) was received: credited once.
  app.post(
    "/payments/:paymentId/confirm",
    {
      config: { access: "operator" },
      schema: {
        params: ConfirmTransferParams,
        response: { 200: z.object({ outcome: z.enum(["credited", "already"]) }) },
      },
    },
    async (req) => {
      const outcome = await confirmPayment({
        ctx,
        paymentId: req.params.paymentId,
        operator: callerAuth(req).userId,
        now: ctx.clock.now(),
      });
      if (outcome === "not_found") throw new AppError("not_found");
      return { outcome };
    },
  );
}
