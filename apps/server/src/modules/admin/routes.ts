import {
  AdminAuditPage,
  AdminAuditQuery,
  AdminBatchParams,
  AdminCatalog,
  AdminCodeBatch,
  AdminCodeBatchCreated,
  AdminCodeBatchPage,
  AdminCodeBatchRequest,
  AdminDashboard,
  AdminDashboardQuery,
  AdminFeedbackPage,
  AdminGrantRequest,
  AdminLeadPage,
  AdminLimitsRequest,
  AdminOrganizationDetail,
  AdminOrganizationPage,
  AdminOrganizationsQuery,
  AdminOrgParams,
  AdminReplyRequest,
  AdminRiddleDefinitionBody,
  AdminRiddleList,
  AdminRiddleMoveRequest,
  AdminRiddleParams,
  AdminSuspendRequest,
  AdminTicketParams,
  AdminTicketQuery,
  AdminTicketStatusRequest,
  AdminTransferPage,
  AdminUserDetail,
  AdminUserPage,
  AdminUserParams,
  AdminUsersQuery,
  AdminVerificationList,
  ConfirmTransferParams,
  PageQuery,
  RejectVerificationRequest,
  VerificationDecisionParams,
} from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type App, callerAuth } from "../../http/route.ts";
import { AppError } from "../../lib/app-error.ts";
import { confirmPayment } from "../billing/index.ts";
import { decideVerification, listPendingVerifications } from "../verification/index.ts";
import { exportAuditLog, listAuditLog } from "./audit-log.ts";
import { createCodeBatch, listCodeBatches, revokeCodeBatch } from "./code-batches.ts";
import { getCatalog } from "./get-catalog.ts";
import { getDashboard } from "./get-dashboard.ts";
import { listOrganizations } from "./list-organizations.ts";
import {
  getAdminOrganization,
  grantOrganizationCredit,
  setOrganizationLimits,
  setOrganizationSuspended,
} from "./manage-organizations.ts";
import { changeRiddle, getRiddleDefinition, listAdminRiddles } from "./manage-riddles.ts";
import { getAdminUser, listUsers, revokeUserSessions, setUserDisabled } from "./manage-users.ts";
import {
  listAllFeedback,
  listPendingTransfers,
  listSalesLeads,
  openFeedbackImage,
  replyToTicket,
  setTicketStatus,
} from "./queues.ts";

const op = { access: "operator" } as const;
const Ok = z.object({ ok: z.literal(true) });
const TicketKind = z.object({ kind: z.enum(["leads", "feedback"]), id: z.string().min(1).max(64) });
const ImageParams = AdminTicketParams.extend({ n: z.coerce.number().int().min(1).max(3) });

/**
 * The back office, mounted at /api/admin. Every route here is `operator`: anyone else gets the answer of a
 * missing route (http/access.ts). Every change is written to the audit log (operator_actions) in its own
 * transaction, with what it changed from and to.
 */
export default async function adminRoutes(app: App, ctx: AppContext) {
  const operator = (req: Parameters<typeof callerAuth>[0]) => callerAuth(req).userId;
  const now = () => ctx.clock.now();

  app.get(
    "/dashboard",
    {
      config: { ...op, readsBills: true },
      schema: { querystring: AdminDashboardQuery, response: { 200: AdminDashboard } },
    },
    async (req) => getDashboard({ db: ctx.db, days: req.query.days, now: now() }),
  );

  app.get("/catalog", { config: op, schema: { response: { 200: AdminCatalog } } }, async () => getCatalog(ctx.engines));

  // ─── organizations ───
  app.get(
    "/organizations",
    { config: op, schema: { querystring: AdminOrganizationsQuery, response: { 200: AdminOrganizationPage } } },
    async (req) => listOrganizations({ db: ctx.db, ...req.query, now: now() }),
  );
  app.get(
    "/organizations/:orgId",
    { config: op, schema: { params: AdminOrgParams, response: { 200: AdminOrganizationDetail } } },
    async (req) => getAdminOrganization({ ctx, orgId: req.params.orgId }),
  );
  app.post(
    "/organizations/:orgId/grant",
    {
      config: op,
      schema: { params: AdminOrgParams, body: AdminGrantRequest, response: { 200: AdminOrganizationDetail } },
    },
    async (req) => grantOrganizationCredit({ ctx, orgId: req.params.orgId, operator: operator(req), body: req.body }),
  );
  app.put(
    "/organizations/:orgId/limits",
    {
      config: op,
      schema: { params: AdminOrgParams, body: AdminLimitsRequest, response: { 200: AdminOrganizationDetail } },
    },
    async (req) => setOrganizationLimits({ ctx, orgId: req.params.orgId, operator: operator(req), body: req.body }),
  );
  app.post(
    "/organizations/:orgId/suspend",
    {
      config: op,
      schema: { params: AdminOrgParams, body: AdminSuspendRequest, response: { 200: AdminOrganizationDetail } },
    },
    async (req) =>
      setOrganizationSuspended({
        ctx,
        orgId: req.params.orgId,
        operator: operator(req),
        suspend: true,
        reason: req.body.reason,
      }),
  );
  app.post(
    "/organizations/:orgId/resume",
    { config: op, schema: { params: AdminOrgParams, response: { 200: AdminOrganizationDetail } } },
    async (req) => setOrganizationSuspended({ ctx, orgId: req.params.orgId, operator: operator(req), suspend: false }),
  );

  // ─── users ───
  app.get(
    "/users",
    { config: op, schema: { querystring: AdminUsersQuery, response: { 200: AdminUserPage } } },
    async (req) => listUsers({ db: ctx.db, ...req.query, now: now() }),
  );
  app.get(
    "/users/:userId",
    { config: op, schema: { params: AdminUserParams, response: { 200: AdminUserDetail } } },
    async (req) => getAdminUser({ db: ctx.db, userId: req.params.userId, now: now() }),
  );
  app.post(
    "/users/:userId/disable",
    { config: op, schema: { params: AdminUserParams, response: { 200: AdminUserDetail } } },
    async (req) => setUserDisabled({ ctx, userId: req.params.userId, operator: operator(req), disable: true }),
  );
  app.post(
    "/users/:userId/enable",
    { config: op, schema: { params: AdminUserParams, response: { 200: AdminUserDetail } } },
    async (req) => setUserDisabled({ ctx, userId: req.params.userId, operator: operator(req), disable: false }),
  );
  app.post(
    "/users/:userId/revoke-sessions",
    { config: op, schema: { params: AdminUserParams, response: { 200: AdminUserDetail } } },
    async (req) => revokeUserSessions({ ctx, userId: req.params.userId, operator: operator(req) }),
  );

  // ─── queues ───
  app.get(
    "/transfers",
    { config: op, schema: { querystring: PageQuery, response: { 200: AdminTransferPage } } },
    async (req) => listPendingTransfers({ db: ctx.db, ...req.query }),
  );
  // An operator confirms a corporate transfer (or a flagged payment) was received: credited once.
  app.post(
    "/payments/:paymentId/confirm",
    {
      config: op,
      schema: {
        params: ConfirmTransferParams,
        response: { 200: z.object({ outcome: z.enum(["credited", "already"]) }) },
      },
    },
    async (req) => {
      const outcome = await confirmPayment({
        ctx,
        paymentId: req.params.paymentId,
        operator: operator(req),
        now: now(),
      });
      if (outcome === "not_found") throw new AppError("not_found");
      return { outcome };
    },
  );
  // Verification applications waiting for an operator (company ones with the built-in provider).
  app.get("/verifications", { config: op, schema: { response: { 200: AdminVerificationList } } }, async () => ({
    items: (await listPendingVerifications({ ctx })).map((v) => ({
      ...v,
      details: v.details as Record<string, string>,
      createdAt: v.createdAt.toISOString(),
    })),
  }));
  app.post(
    "/verifications/:applicationId/approve",
    { config: op, schema: { params: VerificationDecisionParams, response: { 200: Ok } } },
    async (req) => {
      await decideVerification({
        ctx,
        applicationId: req.params.applicationId,
        decision: "approve",
        operator: operator(req),
      });
      return { ok: true as const };
    },
  );
  app.post(
    "/verifications/:applicationId/reject",
    {
      config: op,
      schema: { params: VerificationDecisionParams, body: RejectVerificationRequest, response: { 200: Ok } },
    },
    async (req) => {
      await decideVerification({
        ctx,
        applicationId: req.params.applicationId,
        decision: "reject",
        reason: req.body.reason,
        operator: operator(req),
      });
      return { ok: true as const };
    },
  );
  app.get(
    "/leads",
    { config: op, schema: { querystring: AdminTicketQuery, response: { 200: AdminLeadPage } } },
    async (req) => listSalesLeads({ db: ctx.db, ...req.query }),
  );
  app.get(
    "/feedback",
    { config: op, schema: { querystring: AdminTicketQuery, response: { 200: AdminFeedbackPage } } },
    async (req) => listAllFeedback({ db: ctx.db, ...req.query }),
  );
  app.get("/feedback/:id/images/:n", { config: op, schema: { params: ImageParams } }, async (req, reply) => {
    const image = await openFeedbackImage({ ctx, id: req.params.id, n: req.params.n });
    // Served as the recognised type only, never sniffed, and never as a page of this origin.
    reply.header("content-type", image.contentType);
    reply.header("x-content-type-options", "nosniff");
    reply.header("content-security-policy", "default-src 'none'; sandbox");
    reply.header("cache-control", "private, max-age=300");
    return reply.send(image.stream);
  });
  app.put(
    "/:kind/:id/status",
    { config: op, schema: { params: TicketKind, body: AdminTicketStatusRequest, response: { 200: Ok } } },
    async (req) => {
      await setTicketStatus({
        db: ctx.db,
        kind: req.params.kind === "leads" ? "lead" : "feedback",
        id: req.params.id,
        status: req.body.status,
        operator: operator(req),
      });
      return { ok: true as const };
    },
  );
  app.post(
    "/:kind/:id/reply",
    { config: op, schema: { params: TicketKind, body: AdminReplyRequest, response: { 200: Ok } } },
    async (req) => {
      await replyToTicket({
        ctx,
        kind: req.params.kind === "leads" ? "lead" : "feedback",
        id: req.params.id,
        message: req.body.message,
        operator: operator(req),
      });
      return { ok: true as const };
    },
  );

  // ─── redemption code batches ───
  app.get(
    "/code-batches",
    { config: op, schema: { querystring: PageQuery, response: { 200: AdminCodeBatchPage } } },
    async (req) => listCodeBatches({ db: ctx.db, ...req.query, now: now() }),
  );
  app.post(
    "/code-batches",
    { config: op, schema: { body: AdminCodeBatchRequest, response: { 201: AdminCodeBatchCreated } } },
    async (req, reply) => {
      reply.status(201);
      return createCodeBatch({ ctx, operator: operator(req), body: req.body });
    },
  );
  app.post(
    "/code-batches/:batchId/revoke",
    { config: op, schema: { params: AdminBatchParams, response: { 200: AdminCodeBatch } } },
    async (req) => revokeCodeBatch({ ctx, operator: operator(req), batchId: req.params.batchId }),
  );

  // ─── riddles (the same checks as the CLI's `riddles` command) ───
  app.get("/riddles", { config: op, schema: { response: { 200: AdminRiddleList } } }, async () =>
    listAdminRiddles(ctx.db),
  );
  app.get("/riddles/:riddleId", { config: op, schema: { params: AdminRiddleParams } }, async (req) =>
    getRiddleDefinition(ctx.db, req.params.riddleId),
  );
  app.post(
    "/riddles",
    { config: op, schema: { body: AdminRiddleDefinitionBody, response: { 201: Ok } } },
    async (req, reply) => {
      await changeRiddle({
        db: ctx.db,
        operator: operator(req),
        change: { kind: "add", definition: req.body.definition },
      });
      reply.status(201);
      return { ok: true as const };
    },
  );
  app.put(
    "/riddles/:riddleId",
    { config: op, schema: { params: AdminRiddleParams, body: AdminRiddleDefinitionBody, response: { 200: Ok } } },
    async (req) => {
      await changeRiddle({
        db: ctx.db,
        operator: operator(req),
        riddleId: req.params.riddleId,
        change: { kind: "edit", patch: req.body.definition },
      });
      return { ok: true as const };
    },
  );
  app.post(
    "/riddles/:riddleId/move",
    { config: op, schema: { params: AdminRiddleParams, body: AdminRiddleMoveRequest, response: { 200: Ok } } },
    async (req) => {
      await changeRiddle({
        db: ctx.db,
        operator: operator(req),
        riddleId: req.params.riddleId,
        change: { kind: "move", position: req.body.position },
      });
      return { ok: true as const };
    },
  );
  for (const kind of ["retire", "restore"] as const) {
    app.post(
      `/riddles/:riddleId/${kind}`,
      { config: op, schema: { params: AdminRiddleParams, response: { 200: Ok } } },
      async (req) => {
        await changeRiddle({ db: ctx.db, operator: operator(req), riddleId: req.params.riddleId, change: { kind } });
        return { ok: true as const };
      },
    );
  }

  // ─── audit log ───
  app.get("/audit", { config: op, schema: { querystring: AdminAuditQuery } }, async (req, reply) => {
    if (req.query.format === "csv") {
      reply.header("content-type", "text/csv; charset=utf-8");
      reply.header("content-disposition", 'attachment; filename="audit-log.csv"');
      return exportAuditLog({ db: ctx.db, q: req.query.q });
    }
    return AdminAuditPage.parse(await listAuditLog({ db: ctx.db, ...req.query }));
  });
}
