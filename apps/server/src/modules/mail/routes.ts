import { DevMail } from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { App } from "../../http/route.ts";
import { listDevMail } from "./list-dev-mail.ts";

export default async function mailRoutes(app: App, ctx: AppContext) {
  // Development seam (DEV_SEAMS=true, loopback clients only): what MAIL_TRANSPORT=dev kept instead of sending.
  if (ctx.config.devSeams) {
    app.get(
      "/dev/mail-outbox",
      {
        config: { access: "public", loopbackOnly: true },
        schema: { querystring: z.object({ to: z.string().max(254).optional() }), response: { 200: z.array(DevMail) } },
      },
      async (req) => listDevMail({ ctx, to: req.query.to }),
    );
  }
}
