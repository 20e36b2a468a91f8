import type { MeWithOrgs } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { phoneTaken } from "./create-user.ts";
import { getMe } from "./get-me.ts";
import { checkSmsCode, consumeSmsCode } from "./sms-codes.ts";

/**
 * Binds a phone to the account, or rebinds it: a code sent to the new phone is always needed, and while a
 * phone is bound also a code sent to that old phone. Both codes are used up together or not at all.
 */
export async function bindPhone(opts: {
  ctx: AppContext;
  userId: string;
  oldCode?: string;
  newPhone: string;
  newCode: string;
}): Promise<MeWithOrgs> {
  const { ctx, userId, newPhone } = opts;
  const { db } = ctx;
  const now = ctx.clock.now();
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, userId));
  if (!user) throw new AppError("unauthenticated");
  if (user.phone === newPhone) {
    throw new AppError("validation_failed", { details: [{ path: "newPhone", message: "phone_same" }] });
  }
  const [owner] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.phone, newPhone));
  if (owner) throw phoneTaken("newPhone");

  let oldCodeId: string | undefined;
  if (user.phone) {
    if (!opts.oldCode) {
      throw new AppError("old_sms_code_required", { details: [{ path: "oldCode", message: "old_sms_code_required" }] });
    }
    oldCodeId = await checkSmsCode({
      db,
      phone: user.phone,
      purpose: "bind_old",
      code: opts.oldCode,
      now,
      field: "oldCode",
    });
  }
  const newCodeId = await checkSmsCode({
    db,
    phone: newPhone,
    purpose: "bind_new",
    code: opts.newCode,
    now,
    field: "newCode",
  });
  return db.transaction(async (tx) => {
    if (oldCodeId) await consumeSmsCode({ tx, id: oldCodeId, now, field: "oldCode" });
    await consumeSmsCode({ tx, id: newCodeId, now, field: "newCode" });
    try {
      await tx.update(schema.users).set({ phone: newPhone, updatedAt: now }).where(eq(schema.users.id, userId));
    } catch (e) {
      if (isUniqueViolation(e, "users_phone_uq")) throw phoneTaken("newPhone");
      throw e;
    }
    return getMe({ db: tx, userId });
  });
}
