import type { FeedbackItem, FeedbackPage } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";

type Row = typeof schema.feedback.$inferSelect & { submittedBy: string };

export function toFeedbackItem(r: Row): FeedbackItem {
  return {
    id: r.id,
    type: r.type as FeedbackItem["type"],
    model: r.model,
    description: r.description,
    contact: r.contact,
    images: r.images.length,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    repliedAt: r.repliedAt?.toISOString() ?? null,
    submittedBy: r.submittedBy,
  };
}

/**
 * The organization's feedback, newest first: organization admins see everyone's, members their own (what they
 * sent is theirs; the others' may describe problems the admins keep to themselves).
 */
export async function listFeedback(opts: {
  ctx: AppContext;
  access: OrgAccess;
  page: number;
  pageSize: number;
}): Promise<FeedbackPage> {
  const { ctx, access } = opts;
  const f = schema.feedback;
  const where: SQL | undefined =
    access.role === "admin" ? eq(f.orgId, access.org.id) : and(eq(f.orgId, access.org.id), eq(f.userId, access.userId));
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ row: f, submittedBy: schema.users.username })
      .from(f)
      .innerJoin(schema.users, eq(schema.users.id, f.userId))
      .where(where)
      .orderBy(desc(f.createdAt), desc(f.id))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
    ctx.db.select({ n: count() }).from(f).where(where),
  ]);
  return {
    items: rows.map((r) => toFeedbackItem({ ...r.row, submittedBy: r.submittedBy ?? r.row.userId })),
    total: total?.n ?? 0,
    page: opts.page,
    pageSize: opts.pageSize,
  };
}
