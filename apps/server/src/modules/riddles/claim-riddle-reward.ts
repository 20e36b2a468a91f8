import type { RiddleClaim } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { issueVoucher } from "../billing/index.ts";
import { ensureRiddleCatalog, riddleReward } from "./riddle-rows.ts";

/**
 * Claims a solved riddle's reward as a voucher of the organization the player is in, once per player and riddle.
 * The solve row is marked claimed with a conditional update (`claimed_at is null`) in the same transaction as the
 * voucher, so of concurrent claims exactly one updates it and pays; the others see it claimed. The voucher goes
 * through the billing core (`issueVoucher`, reference `riddle:<user>:<riddle>`: idempotent in the ledger too).
 */
export async function claimRiddleReward(opts: {
  ctx: AppContext;
  access: OrgAccess;
  riddleId: string;
}): Promise<RiddleClaim> {
  const { ctx, access } = opts;
  await ensureRiddleCatalog(ctx.db);
  const [riddle] = await ctx.db.select().from(schema.riddles).where(eq(schema.riddles.id, opts.riddleId));
  if (!riddle) throw new AppError("not_found");
  const now = ctx.clock.now();
  const amount = riddleReward(riddle, access.org.currency);
  const expiresAt = new Date(now.getTime() + riddle.voucherDays * 86_400_000);
  const s = schema.riddleSolves;
  return withTransaction(ctx, async (tx) => {
    const [claimed] = await tx
      .update(s)
      .set({ claimedAt: now, claimOrgId: access.org.id })
      .where(and(eq(s.userId, access.userId), eq(s.riddleId, riddle.id), isNull(s.claimedAt)))
      .returning({ riddleId: s.riddleId });
    if (!claimed) {
      const [solve] = await tx
        .select({ claimedAt: s.claimedAt })
        .from(s)
        .where(and(eq(s.userId, access.userId), eq(s.riddleId, riddle.id)));
      throw new AppError(solve ? "riddle_reward_claimed" : "riddle_not_solved");
    }
    const issued = await issueVoucher({
      ctx,
      tx,
      orgId: access.org.id,
      type: "activity",
      amount,
      expiresAt,
      reference: `riddle:${access.userId}:${riddle.id}`,
      note: `riddle reward: ${riddle.id}`,
      createdBy: access.userId,
    });
    if (!issued.voucherId) throw new AppError("riddle_reward_claimed");
    await tx
      .update(s)
      .set({ voucherId: issued.voucherId })
      .where(and(eq(s.userId, access.userId), eq(s.riddleId, riddle.id)));
    return {
      riddleId: riddle.id,
      voucherId: issued.voucherId,
      amount: amount.toString(),
      currency: access.org.currency,
      expiresAt: expiresAt.toISOString(),
    };
  });
}
