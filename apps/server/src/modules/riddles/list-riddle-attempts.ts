import type { RiddleAttemptList } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { attemptView, ensureRiddleCatalog } from "./riddle-rows.ts";

/** The player's own judged attempts at one riddle, newest first (the last 50). Nobody sees another's attempts. */
export async function listRiddleAttempts(opts: {
  ctx: AppContext;
  access: OrgAccess;
  riddleId: string;
}): Promise<RiddleAttemptList> {
  const { ctx, access } = opts;
  await ensureRiddleCatalog(ctx.db);
  const [riddle] = await ctx.db
    .select({ id: schema.riddles.id })
    .from(schema.riddles)
    .where(eq(schema.riddles.id, opts.riddleId));
  if (!riddle) throw new AppError("not_found");
  const a = schema.riddleAttempts;
  const rows = await ctx.db
    .select()
    .from(a)
    .where(and(eq(a.userId, access.userId), eq(a.riddleId, riddle.id), eq(a.status, "judged")))
    .orderBy(desc(a.createdAt), desc(a.id))
    .limit(50);
  return { items: rows.map(attemptView) };
}
