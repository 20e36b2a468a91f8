import {
  type AdminRefund,
  AdminRefundList,
  AdminRefundParams,
  AdminRefundQuery,
  CompleteTransferRefundRequest,
  CreateRefundRequest,
  CreateRefundResponse,
  OkResponse,
  OrgIdParams,
  RefundListQuery,
  RefundOptions,
  RefundPage,
  RefundParams,
  RejectRefundRequest,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, callerAuth, orgAccess } from "../../http/route.ts";
import { getRefundOptions, listRefunds } from "./list-refunds.ts";
import {
  approveRefund,
  cancelRefund,
  completeManualRefund,
  listRefundQueue,
  refundsByHand,
  rejectRefund,
} from "./manage-refund.ts";
import { toRefund } from "./refund-view.ts";
import { requestRefunds } from "./request-refunds.ts";

/**
 * Refunds: organization admins ask and cancel (money is the organization's, like every billing route); the
 * operator decides under /api/admin/refunds (back-office Queues → Refunds), each decision audited.
 */
export default async function refundRoutes(app: App, ctx: AppContext) {
  const admin = { access: "orgAdmin" } as const;
  const op = { access: "operator" } as const;
  const operator = (req: Parameters<typeof callerAuth>[0]) => callerAuth(req).userId;

  app.get(
    "/orgs/:orgId/refunds",
    { config: admin, schema: { params: OrgIdParams, querystring: RefundListQuery, response: { 200: RefundPage } } },
    async (req) => listRefunds({ ctx, access: orgAccess(req), ...req.query }),
  );
  app.get(
    "/orgs/:orgId/refunds/options",
    { config: admin, schema: { params: OrgIdParams, response: { 200: RefundOptions } } },
    async (req) => getRefundOptions({ ctx, access: orgAccess(req) }),
  );
  app.post(
    "/orgs/:orgId/refunds",
    {
      config: admin,
      schema: { params: OrgIdParams, body: CreateRefundRequest, response: { 201: CreateRefundResponse } },
    },
    async (req, reply) => {
      const out = await requestRefunds({ ctx, access: orgAccess(req), body: req.body, locale: req.locale });
      reply.status(201);
      return out;
    },
  );
  app.post(
    "/orgs/:orgId/refunds/:refundId/cancel",
    { config: admin, schema: { params: RefundParams, response: { 200: OkResponse } } },
    async (req) => {
      await cancelRefund({ ctx, access: orgAccess(req), refundId: req.params.refundId });
      return { ok: true as const };
    },
  );

  // ─── operator ───
  app.get(
    "/admin/refunds",
    { config: op, schema: { querystring: AdminRefundQuery, response: { 200: AdminRefundList } } },
    async (req) => ({
      items: (await listRefundQueue({ ctx, status: req.query.status })).map(
        (r): AdminRefund => ({
          ...toRefund(r),
          orgId: r.refund.orgId,
          orgName: r.orgName,
          provider: r.provider,
          manual: refundsByHand(ctx, r),
          attempt: r.refund.attempt,
        }),
      ),
    }),
  );
  const decide = (path: string, run: (refundId: string, req: Parameters<typeof callerAuth>[0]) => Promise<unknown>) =>
    app.post(
      `/admin/refunds/:refundId/${path}`,
      { config: op, schema: { params: AdminRefundParams, response: { 200: OkResponse } } },
      async (req) => {
        await run((req.params as { refundId: string }).refundId, req);
        return { ok: true as const };
      },
    );
  decide("approve", (refundId, req) => approveRefund({ ctx, refundId, operator: operator(req) }));
  decide("retry", (refundId, req) => approveRefund({ ctx, refundId, operator: operator(req), retry: true }));
  app.post(
    "/admin/refunds/:refundId/reject",
    { config: op, schema: { params: AdminRefundParams, body: RejectRefundRequest, response: { 200: OkResponse } } },
    async (req) => {
      await rejectRefund({ ctx, refundId: req.params.refundId, reason: req.body.reason, operator: operator(req) });
      return { ok: true as const };
    },
  );
  app.post(
    "/admin/refunds/:refundId/complete",
    {
      config: op,
      schema: { params: AdminRefundParams, body: CompleteTransferRefundRequest, response: { 200: OkResponse } },
    },
    async (req) => {
      await completeManualRefund({
        ctx,
        refundId: req.params.refundId,
        reference: req.body.reference,
        operator: operator(req),
      });
      return { ok: true as const };
    },
  );
}
