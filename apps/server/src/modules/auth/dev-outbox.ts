import type { DevSmsMessage } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";

/** What the development SMS provider sent, newest first (optionally to one phone). Never served in production. */
export async function listDevSms(opts: { ctx: AppContext; phone?: string }): Promise<DevSmsMessage[]> {
  const rows = await opts.ctx.db
    .select()
    .from(schema.smsOutbox)
    .where(opts.phone ? eq(schema.smsOutbox.phone, opts.phone) : undefined)
    .orderBy(desc(schema.smsOutbox.createdAt))
    .limit(100);
  return rows.map((r) => ({ phone: r.phone, text: r.text, code: r.code, createdAt: r.createdAt.toISOString() }));
}
