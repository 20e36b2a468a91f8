import type { DevMail } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { desc, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";

/** What the development mail transport kept, newest first (optionally to one address). Never served in production. */
export async function listDevMail(opts: { ctx: AppContext; to?: string }): Promise<DevMail[]> {
  const rows = await opts.ctx.db
    .select()
    .from(schema.mailOutbox)
    .where(opts.to ? sql`${schema.mailOutbox.to} @> ${JSON.stringify([opts.to])}::jsonb` : undefined)
    .orderBy(desc(schema.mailOutbox.createdAt))
    .limit(100);
  return rows.map((r) => ({
    to: r.to,
    subject: r.subject,
    text: r.text,
    html: r.html,
    createdAt: r.createdAt.toISOString(),
  }));
}
