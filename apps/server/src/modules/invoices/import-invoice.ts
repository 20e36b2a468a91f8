/**
 * An invoice issued outside the platform, recorded by an operator (§4 status `imported`): it covers paid recharges
 * of one organization like an application does, so it holds its amounts on them (available = amount − invoiced −
 * refunded, checked under the same row locks as `applyInvoice`) and neither another invoice nor a refund can take
 * them. It is shown in the customer's invoice records; nothing is rendered or e-mailed (the invoice exists on
 * paper or in the tax system already). Audited in its transaction.
 */
import {
  EDITION_TIME_ZONE,
  type ImportInvoiceRequest,
  type Locale,
  splitTax,
  VAT_RATE_BP,
  vmsg,
} from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { startOfLocalDay } from "../../lib/edition-time.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { recordOperatorAction } from "../admin/index.ts";
import { checkAvailable, editionDate, holdInvoiceAmount, type Problem, readItems } from "./apply-invoice.ts";
import type { InvoiceRow } from "./invoice-view.ts";

export async function importInvoice(opts: {
  ctx: Pick<AppContext, "db" | "log" | "clock" | "config">;
  body: ImportInvoiceRequest;
  operator: string;
  locale?: Locale;
}): Promise<InvoiceRow> {
  const { ctx, body } = opts;
  const [org] = await ctx.db.select().from(schema.organizations).where(eq(schema.organizations.id, body.orgId));
  if (!org) throw new AppError("not_found");
  const problems: Problem[] = [];
  const wanted = readItems(body.items, problems);
  const now = ctx.clock.now();
  if (body.issuedOn > editionDate(org.edition, now)) {
    problems.push({ path: "issuedOn", message: vmsg("invoice_issued_future") });
  }
  if (problems.length) throw new AppError("validation_failed", { details: problems });

  const gross = wanted.reduce((s, w) => s + w.amount, 0n);
  // The tax split printed on an invoice of this edition: cn VAT, or the global edition's GST.
  const rateBp = org.edition === "cn" ? VAT_RATE_BP : ctx.config.invoices.gstRateBp;
  const { net, tax } = splitTax(gross, rateBp);
  const [year, month, day] = body.issuedOn.split("-").map(Number) as [number, number, number];
  const issuedAt = new Date(startOfLocalDay({ year, month, day }, EDITION_TIME_ZONE[org.edition]));
  const id = newId("inv");
  try {
    return await withTransaction(ctx, async (tx) => {
      await checkAvailable(tx, org.id, wanted);
      const [row] = await tx
        .insert(schema.invoices)
        .values({
          id,
          orgId: org.id,
          method: body.method,
          titleType: body.titleType,
          invoiceType: body.invoiceType,
          title: body.title,
          // Nothing is e-mailed about an imported invoice.
          email: "",
          currency: org.currency,
          amount: gross,
          net,
          tax,
          taxRateBp: rateBp,
          status: "imported",
          invoiceNo: body.invoiceNo,
          locale: opts.locale ?? "en-US",
          createdBy: opts.operator,
          createdAt: now,
          issuedAt,
        })
        .returning();
      await holdInvoiceAmount(tx, id, wanted);
      await recordOperatorAction(tx, {
        actor: opts.operator,
        action: "invoice.import",
        target: id,
        before: null,
        after: { status: "imported", invoiceNo: body.invoiceNo, amount: gross.toString(), issuedOn: body.issuedOn },
        details: {
          orgId: org.id,
          title: body.title,
          items: wanted.map((w) => ({ paymentId: w.paymentId, amount: w.amount.toString() })),
        },
      });
      return row!;
    });
  } catch (err) {
    if (isUniqueViolation(err, "invoices_invoice_no_uq")) throw new AppError("invoice_no_taken");
    throw err;
  }
}
