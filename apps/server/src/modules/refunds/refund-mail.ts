import { formatMoney, parseLocale } from "@moonport/contracts";
import { schema, type Tx } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { enqueueMail } from "../../mail/enqueue-mail.ts";
import { renderMail } from "../../mail/templates.ts";
import type { RefundRow } from "./refund-view.ts";

/**
 * The receipts of a refund request, of its completion and of its rejection (with the operator's reason), to the
 * address given with the request and the organization's alert recipients (the addresses its admins keep for billing notices), in the requester's
 * language. Queued in the caller's transaction: an e-mail exists exactly when the change it reports committed.
 */
export async function enqueueRefundMail(
  ctx: Pick<AppContext, "db" | "clock" | "config">,
  tx: Tx,
  template: "refund_requested" | "refund_completed" | "refund_rejected",
  refunds: RefundRow[],
) {
  const first = refunds[0];
  if (!first) return;
  const [org] = await tx
    .select({
      name: schema.organizations.name,
      edition: schema.organizations.edition,
      recipients: schema.alertSettings.recipients,
    })
    .from(schema.organizations)
    .leftJoin(schema.alertSettings, eq(schema.alertSettings.orgId, schema.organizations.id))
    .where(eq(schema.organizations.id, first.orgId));
  const to = [...new Set([first.email, ...(org?.recipients ?? [])].map((a) => a.toLowerCase()))];
  const total = refunds.reduce((s, r) => s + r.amount, 0n);
  const locale = parseLocale(first.locale) ?? "en-US";
  await enqueueMail(
    ctx,
    renderMail({
      template,
      locale,
      brand: ctx.config.brandName,
      to,
      params: {
        org: org?.name ?? first.orgId,
        amount: formatMoney(total, first.currency),
        lines: refunds.map((r) => `${r.id}: ${formatMoney(r.amount, r.currency)} (${r.paymentId})`).join("; "),
        reference: first.providerRef ?? first.transferReference ?? "",
        reason: first.rejectReason ?? "",
        consoleUrl: `${(org ? (ctx.config.sites[org.edition] ?? "") : "").replace(/\/$/, "")}/console/billing/refunds`,
      },
    }),
    { tx },
  );
}
