import type { Readable } from "node:stream";
import { type AdminFeedback, type AdminLead, type Locale, parseLocale, type TicketStatus } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { enqueueMail } from "../../mail/enqueue-mail.ts";
import { renderMail } from "../../mail/templates.ts";
import { toFeedbackItem } from "../support/index.ts";
import { recordOperatorAction } from "./record-operator-action.ts";

type Page = { page: number; pageSize: number; status?: TicketStatus };
const offset = (p: Page) => (p.page - 1) * p.pageSize;

export async function listSalesLeads(opts: { db: Db } & Page) {
  const l = schema.salesLeads;
  const where = opts.status ? eq(l.status, opts.status) : undefined;
  const [[total], rows] = await Promise.all([
    opts.db.select({ n: count() }).from(l).where(where),
    opts.db
      .select()
      .from(l)
      .where(where)
      .orderBy(desc(l.createdAt), desc(l.id))
      .limit(opts.pageSize)
      .offset(offset(opts)),
  ]);
  const items: AdminLead[] = rows.map((r) => ({
    ...r,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
  }));
  return { items, total: total?.n ?? 0, page: opts.page, pageSize: opts.pageSize };
}

export async function listAllFeedback(opts: { db: Db } & Page) {
  const f = schema.feedback;
  const where: SQL | undefined = opts.status ? eq(f.status, opts.status) : undefined;
  const [[total], rows] = await Promise.all([
    opts.db.select({ n: count() }).from(f).where(where),
    opts.db
      .select({ row: f, submittedBy: schema.users.username, orgName: schema.organizations.name })
      .from(f)
      .innerJoin(schema.users, eq(schema.users.id, f.userId))
      .innerJoin(schema.organizations, eq(schema.organizations.id, f.orgId))
      .where(where)
      .orderBy(desc(f.createdAt), desc(f.id))
      .limit(opts.pageSize)
      .offset(offset(opts)),
  ]);
  const items: AdminFeedback[] = rows.map((r) => ({
    ...toFeedbackItem({ ...r.row, submittedBy: r.submittedBy ?? r.row.userId }),
    orgId: r.row.orgId,
    orgName: r.orgName,
    locale: r.row.locale,
    imageUrls: r.row.images.map((_, i) => `/api/admin/feedback/${r.row.id}/images/${i + 1}`),
  }));
  return { items, total: total?.n ?? 0, page: opts.page, pageSize: opts.pageSize };
}

/** Moves a lead or a feedback item through new → in progress → resolved (any order: reopening is allowed). */
export async function setTicketStatus(opts: {
  db: Db;
  kind: "lead" | "feedback";
  id: string;
  status: TicketStatus;
  operator: string;
}) {
  const table = opts.kind === "lead" ? schema.salesLeads : schema.feedback;
  await opts.db.transaction(async (tx) => {
    const [row] = await tx.select({ status: table.status }).from(table).where(eq(table.id, opts.id)).for("update");
    if (!row) throw new AppError("not_found");
    if (row.status === opts.status) return;
    await tx.update(table).set({ status: opts.status }).where(eq(table.id, opts.id));
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: `${opts.kind}.set_status`,
      target: opts.id,
      before: { status: row.status },
      after: { status: opts.status },
    });
  });
}

const isEmail = (s: string | null) => s !== null && z.email().safeParse(s).success;

/**
 * Answers a lead (at its e-mail) or a feedback item (at its contact, when that is an e-mail address) in the
 * sender's language; the e-mail is queued with the audit line and the item moves to "in progress" if it was new.
 */
export async function replyToTicket(opts: {
  ctx: AppContext;
  kind: "lead" | "feedback";
  id: string;
  message: string;
  operator: string;
}) {
  const { ctx } = opts;
  await ctx.db.transaction(async (tx) => {
    let to: string;
    let locale: Locale;
    let original: string;
    let sentAt: Date;
    let status: TicketStatus;
    if (opts.kind === "lead") {
      const [lead] = await tx.select().from(schema.salesLeads).where(eq(schema.salesLeads.id, opts.id)).for("update");
      if (!lead) throw new AppError("not_found");
      ({ email: to, problem: original, createdAt: sentAt, status } = lead);
      locale = parseLocale(lead.locale) ?? "en-US";
    } else {
      const [fb] = await tx.select().from(schema.feedback).where(eq(schema.feedback.id, opts.id)).for("update");
      if (!fb) throw new AppError("not_found");
      if (!isEmail(fb.contact)) {
        throw new AppError("conflict", { params: { reason: "this feedback left no e-mail address to answer" } });
      }
      to = fb.contact!;
      ({ description: original, createdAt: sentAt, status } = fb);
      locale = parseLocale(fb.locale) ?? "en-US";
      await tx.update(schema.feedback).set({ repliedAt: ctx.clock.now() }).where(eq(schema.feedback.id, opts.id));
    }
    const kindLabel = {
      lead: { "en-US": "request to our sales team", "zh-CN": "销售咨询" },
      feedback: { "en-US": "feedback", "zh-CN": "反馈" },
    }[opts.kind][locale];
    await enqueueMail(
      ctx,
      renderMail({
        template: "support_reply",
        locale,
        brand: ctx.config.brandName,
        to: [to],
        params: {
          kind: kindLabel,
          message: opts.message,
          original: original.slice(0, 1000),
          sentAt: sentAt.toISOString().slice(0, 16).replace("T", " "),
          id: opts.id,
        },
      }),
      { tx },
    );
    const table = opts.kind === "lead" ? schema.salesLeads : schema.feedback;
    if (status === "new") await tx.update(table).set({ status: "in_progress" }).where(eq(table.id, opts.id));
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: `${opts.kind}.reply`,
      target: opts.id,
      before: { status },
      after: { status: status === "new" ? "in_progress" : status },
      details: { to, message: opts.message },
    });
  });
}

/** One stored image of a feedback item, for the operator's queue. */
export async function openFeedbackImage(opts: {
  ctx: AppContext;
  id: string;
  n: number;
}): Promise<{ stream: Readable; contentType: string }> {
  const [fb] = await opts.ctx.db
    .select({ images: schema.feedback.images })
    .from(schema.feedback)
    .where(eq(schema.feedback.id, opts.id));
  const image = fb?.images[opts.n - 1];
  if (!image) throw new AppError("not_found");
  return { stream: await opts.ctx.exportFiles.open(image.key), contentType: image.contentType };
}

/** Corporate transfers waiting for an operator to confirm the money arrived, oldest first. */
export async function listPendingTransfers(opts: { db: Db; page: number; pageSize: number }) {
  const p = schema.payments;
  const where = and(eq(p.status, "waiting"), eq(p.payType, "b2btransfer"));
  const [[total], rows] = await Promise.all([
    opts.db.select({ n: count() }).from(p).where(where),
    opts.db
      .select({ payment: p, orgName: schema.organizations.name })
      .from(p)
      .innerJoin(schema.organizations, eq(schema.organizations.id, p.orgId))
      .where(where)
      .orderBy(p.createdAt)
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.payment.id,
      orgId: r.payment.orgId,
      orgName: r.orgName,
      amount: r.payment.amount.toString(),
      currency: r.payment.currency,
      reference: r.payment.transferReference,
      createdAt: r.payment.createdAt.toISOString(),
    })),
    total: total?.n ?? 0,
    page: opts.page,
    pageSize: opts.pageSize,
  };
}
