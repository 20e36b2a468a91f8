import {
  BillingOverview,
  BindCardRequest,
  CardParams,
  CreatePaymentRequest,
  OkResponse,
  OrgIdParams,
  Payment,
  PaymentCard,
  PaymentCardList,
  PaymentListQuery,
  PaymentPage,
  PaymentParams,
  parseMoney,
  RechargeOptions,
  RedeemVoucherRequest,
  RedeemVoucherResponse,
  VoucherListQuery,
  VoucherPage,
} from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess } from "../../http/route.ts";
import { generateRedemptionCodes } from "../billing/index.ts";
import { bindCard, deleteCard, listCards } from "./cards.ts";
import { createPayment } from "./create-payment.ts";
import { getBillingOverview, getRechargeOptions } from "./get-billing-overview.ts";
import { cancelPayment, continuePayment, getPayment, listPayments } from "./manage-payments.ts";
import { listVouchers, redeemVoucher } from "./vouchers.ts";

/**
 * Billing screens (recharge, cards, vouchers, account overview): organization admins only (modules/payments/README.md).
 */
export default async function paymentRoutes(app: App, ctx: AppContext) {
  const admin = { access: "orgAdmin" } as const;
  app.get(
    "/orgs/:orgId/billing/overview",
    { config: { ...admin, readsBills: true }, schema: { params: OrgIdParams, response: { 200: BillingOverview } } },
    async (req) => getBillingOverview({ ctx, access: orgAccess(req) }),
  );
  app.get(
    "/orgs/:orgId/recharge/options",
    { config: admin, schema: { params: OrgIdParams, response: { 200: RechargeOptions } } },
    async (req) => getRechargeOptions({ ctx, access: orgAccess(req) }),
  );
  app.get(
    "/orgs/:orgId/payments",
    { config: admin, schema: { params: OrgIdParams, querystring: PaymentListQuery, response: { 200: PaymentPage } } },
    async (req) => listPayments({ ctx, access: orgAccess(req), query: req.query }),
  );
  app.post(
    "/orgs/:orgId/payments",
    { config: admin, schema: { params: OrgIdParams, body: CreatePaymentRequest, response: { 201: Payment } } },
    async (req, reply) => {
      const payment = await createPayment({ ctx, access: orgAccess(req), request: req.body });
      reply.status(201);
      return payment;
    },
  );
  app.get(
    "/orgs/:orgId/payments/:paymentId",
    { config: admin, schema: { params: PaymentParams, response: { 200: Payment } } },
    async (req) => getPayment({ ctx, access: orgAccess(req), paymentId: req.params.paymentId }),
  );
  app.post(
    "/orgs/:orgId/payments/:paymentId/cancel",
    { config: admin, schema: { params: PaymentParams, response: { 200: Payment } } },
    async (req) => cancelPayment({ ctx, access: orgAccess(req), paymentId: req.params.paymentId }),
  );
  app.post(
    "/orgs/:orgId/payments/:paymentId/continue",
    { config: admin, schema: { params: PaymentParams, response: { 200: Payment } } },
    async (req) => continuePayment({ ctx, access: orgAccess(req), paymentId: req.params.paymentId }),
  );
  app.get(
    "/orgs/:orgId/cards",
    { config: admin, schema: { params: OrgIdParams, response: { 200: PaymentCardList } } },
    async (req) => listCards({ ctx, access: orgAccess(req) }),
  );
  app.post(
    "/orgs/:orgId/cards",
    { config: admin, schema: { params: OrgIdParams, body: BindCardRequest, response: { 201: PaymentCard } } },
    async (req, reply) => {
      const card = await bindCard({ ctx, access: orgAccess(req), token: req.body.token, customer: req.body.customer });
      reply.status(201);
      return card;
    },
  );
  app.delete(
    "/orgs/:orgId/cards/:cardId",
    { config: admin, schema: { params: CardParams, response: { 200: OkResponse } } },
    async (req) => {
      await deleteCard({ ctx, access: orgAccess(req), cardId: req.params.cardId });
      return { ok: true as const };
    },
  );
  app.get(
    "/orgs/:orgId/vouchers",
    { config: admin, schema: { params: OrgIdParams, querystring: VoucherListQuery, response: { 200: VoucherPage } } },
    async (req) => listVouchers({ ctx, access: orgAccess(req), query: req.query }),
  );
  app.post(
    "/orgs/:orgId/vouchers/redeem",
    {
      config: admin,
      schema: { params: OrgIdParams, body: RedeemVoucherRequest, response: { 200: RedeemVoucherResponse } },
    },
    async (req) => redeemVoucher({ ctx, access: orgAccess(req), code: req.body.code }),
  );

  // Development seam (DEV_SEAMS=true, loopback only): one redemption code for the caller's edition, so the browser
  // e2e can redeem without the operator CLI (which cannot open the running server's PGlite directory).
  if (ctx.config.devSeams) {
    app.post(
      "/dev/orgs/:orgId/voucher-code",
      {
        config: { access: "orgAdmin", loopbackOnly: true },
        schema: {
          params: OrgIdParams,
          body: z.object({
            amount: z.string().regex(/^\d{1,6}(\.\d{1,2})?$/),
            tier: z.number().int().min(0).max(5).optional(),
          }),
          response: { 200: z.object({ code: z.string() }) },
        },
      },
      async (req) => {
        const { org } = orgAccess(req);
        const { codes } = await generateRedemptionCodes(
          { ctx },
          {
            count: 1,
            edition: org.edition,
            amount: parseMoney(req.body.amount),
            voucherType: "activity",
            voucherDays: 30,
            expiresAt: new Date(ctx.clock.now().getTime() + 86_400_000),
            minTier: req.body.tier ?? null,
            operator: "dev-seam",
          },
        );
        return { code: codes[0]! };
      },
    );
  }
}
