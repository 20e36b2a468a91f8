import multipart from "@fastify/multipart";
import {
  ContactSalesReceipt,
  ContactSalesRequest,
  FeedbackItem,
  FeedbackPage,
  OrgIdParams,
  PageQuery,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess } from "../../http/route.ts";
import { listFeedback } from "./list-feedback.ts";
import { receiveFeedback } from "./receive-feedback.ts";
import { submitFeedback } from "./submit-feedback.ts";
import { submitSalesLead } from "./submit-sales-lead.ts";

const FEEDBACK_LIST_RULE = "organization admins see every member's feedback, members only their own";

/** Contact sales (public, limited per IP address) and console feedback (any organization member). */
export default async function supportRoutes(app: App, ctx: AppContext) {
  await app.register(multipart);

  app.post(
    "/contact-sales",
    {
      config: { access: "public" },
      schema: { body: ContactSalesRequest, response: { 201: ContactSalesReceipt } },
    },
    async (req, reply) => {
      reply.status(201);
      return submitSalesLead({ ctx, body: req.body, locale: req.locale, ip: req.ip, userId: req.auth?.userId });
    },
  );

  app.post(
    "/orgs/:orgId/feedback",
    { config: { access: "orgMember" }, schema: { params: OrgIdParams, response: { 201: FeedbackItem } } },
    async (req, reply) => {
      const { fields, images } = await receiveFeedback(req);
      const item = await submitFeedback({ ctx, access: orgAccess(req), fields, images, locale: req.locale });
      reply.status(201);
      return item;
    },
  );

  app.get(
    "/orgs/:orgId/feedback",
    {
      config: { access: "orgMember", objectRule: FEEDBACK_LIST_RULE },
      schema: { params: OrgIdParams, querystring: PageQuery, response: { 200: FeedbackPage } },
    },
    async (req) => listFeedback({ ctx, access: orgAccess(req), page: req.query.page, pageSize: req.query.pageSize }),
  );
}
