import {
  BillExport,
  BillExportList,
  BillRangeQuery,
  CreateBillExportRequest,
  DailyBills,
  ExportIdParams,
  MonthPeriod,
  OrgIdParams,
  PageQuery,
  ProductBills,
  RequestDetails,
  RequestDetailsQuery,
} from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess } from "../../http/route.ts";
import { createBillExport, listBillExports, openBillExport } from "./exports.ts";
import { getDailyBills, getProductBills } from "./get-bills.ts";
import { listRequestBills } from "./list-request-bills.ts";
import { seedDevBills } from "./seed-dev-bills.ts";

/** Billing details and exports: organization admins only (modules/bills/README.md). */
export default async function billRoutes(app: App, ctx: AppContext) {
  app.get(
    "/orgs/:orgId/bills/daily",
    {
      config: { access: "orgAdmin", readsBills: true },
      schema: { params: OrgIdParams, querystring: BillRangeQuery, response: { 200: DailyBills } },
    },
    async (req) => getDailyBills({ ctx, access: orgAccess(req), ...req.query }),
  );

  app.get(
    "/orgs/:orgId/bills/products",
    {
      config: { access: "orgAdmin", readsBills: true },
      schema: { params: OrgIdParams, querystring: BillRangeQuery, response: { 200: ProductBills } },
    },
    async (req) => getProductBills({ ctx, access: orgAccess(req), ...req.query }),
  );

  app.get(
    "/orgs/:orgId/bills/requests",
    {
      config: { access: "orgAdmin", readsBills: true },
      schema: { params: OrgIdParams, querystring: RequestDetailsQuery, response: { 200: RequestDetails } },
    },
    async (req) => listRequestBills({ ctx, access: orgAccess(req), ...req.query }),
  );

  app.get(
    "/orgs/:orgId/bill-exports",
    {
      config: { access: "orgAdmin" },
      schema: { params: OrgIdParams, querystring: PageQuery, response: { 200: BillExportList } },
    },
    async (req) => listBillExports({ ctx, access: orgAccess(req), ...req.query }),
  );

  app.post(
    "/orgs/:orgId/bill-exports",
    {
      config: { access: "orgAdmin" },
      schema: { params: OrgIdParams, body: CreateBillExportRequest, response: { 201: BillExport } },
    },
    async (req, reply) => {
      reply.status(201);
      return createBillExport({ ctx, access: orgAccess(req), ...req.body });
    },
  );

  app.get(
    "/orgs/:orgId/bill-exports/:exportId/download",
    { config: { access: "orgAdmin" }, schema: { params: ExportIdParams } },
    async (req, reply) => {
      const file = await openBillExport({ ctx, access: orgAccess(req), exportId: req.params.exportId });
      reply
        .header(
          "content-type",
          file.format === "xlsx"
            ? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            : "text/csv; charset=utf-8",
        )
        .header("content-disposition", `attachment; filename="${file.fileName}"`)
        .header("cache-control", "private, no-store");
      return reply.send(file.stream);
    },
  );

  // Development seam (DEV_SEAMS=true, loopback clients only): bill rows in a past month for export tests.
  if (ctx.config.devSeams) {
    app.post(
      "/dev/orgs/:orgId/bills/seed-month",
      {
        config: { access: "orgAdmin", loopbackOnly: true },
        schema: {
          params: OrgIdParams,
          body: z.object({ month: MonthPeriod }),
          response: { 200: z.object({ copied: z.number().int() }) },
        },
      },
      async (req) => ({ copied: await seedDevBills({ ctx, access: orgAccess(req), month: req.body.month }) }),
    );
  }
}
