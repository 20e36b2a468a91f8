import type { Locale, SmsPurpose } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { authLimiters, enforce, rateLimited } from "./limits.ts";
import { SmsSendError } from "./sms/provider.ts";
import { newSmsCode, resendWaitSeconds, SMS_CODE_TTL_SECONDS, SMS_RESEND_SECONDS, smsCodeHash } from "./sms-codes.ts";

function smsText(opts: { brand: string; code: string; locale: Locale }): string {
  const minutes = SMS_CODE_TTL_SECONDS / 60;
  return opts.locale === "zh-CN"
    ? `【${opts.brand}】您的验证码是 ${opts.code}，${minutes} 分钟内有效。请勿将验证码告诉他人。`
    : `[${opts.brand}] Your verification code is ${opts.code}. It expires in ${minutes} minutes. Do not share it with anyone.`;
}

/**
 * Sends a verification code. Sign-up needs an unused phone, sign-in a registered one; binding needs a
 * signed-in user (`bind_old` goes to the phone already bound, `bind_new` to a phone no account uses).
 */
export async function sendSmsCode(opts: {
  ctx: AppContext;
  purpose: SmsPurpose;
  phone?: string;
  userId?: string;
  ip: string;
  locale: Locale;
}): Promise<{ resendAfterSeconds: number; expiresInSeconds: number }> {
  const { ctx, purpose, locale } = opts;
  const { db } = ctx;
  const now = ctx.clock.now();
  let phone = opts.phone;

  if (purpose === "bind_old" || purpose === "bind_new") {
    if (!opts.userId) throw new AppError("unauthenticated");
    const [user] = await db.select().from(schema.users).where(eq(schema.users.id, opts.userId));
    if (!user) throw new AppError("unauthenticated");
    if (purpose === "bind_old") {
      if (!user.phone) throw new AppError("phone_not_bound");
      phone = user.phone;
    } else if (phone === user.phone) {
      throw new AppError("validation_failed", { details: [{ path: "phone", message: "phone_same" }] });
    }
  }
  if (!phone) throw new AppError("validation_failed", { details: [{ path: "phone", message: "required" }] });

  if (purpose !== "bind_old") {
    const [owner] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.phone, phone));
    if (purpose === "signin" && !owner) {
      throw new AppError("phone_not_registered", { details: [{ path: "phone", message: "phone_not_registered" }] });
    }
    if ((purpose === "signup" || purpose === "bind_new") && owner) {
      throw new AppError("phone_taken", { details: [{ path: "phone", message: "phone_taken" }] });
    }
  }

  const wait = await resendWaitSeconds({ db, phone, purpose, now });
  if (wait > 0) throw rateLimited(wait);
  const limits = authLimiters(ctx);
  await enforce(limits.smsPerIp, opts.ip);
  await enforce(limits.smsPerPhone, phone);

  const id = newId("smc");
  const code = newSmsCode();
  await db.insert(schema.smsCodes).values({
    id,
    phone,
    purpose,
    codeHash: smsCodeHash(id, code),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SMS_CODE_TTL_SECONDS * 1000),
  });
  try {
    await ctx.sms.send({ phone, code, text: smsText({ brand: ctx.config.brandName, code, locale }) });
  } catch (e) {
    // A code nobody received must neither count nor block a resend.
    await db.delete(schema.smsCodes).where(eq(schema.smsCodes.id, id));
    if (e instanceof SmsSendError) {
      ctx.log.error({ err: e, phone }, "SMS provider failed");
      throw new AppError("sms_send_failed", { params: { reason: e.reason } });
    }
    throw e;
  }
  return { resendAfterSeconds: SMS_RESEND_SECONDS, expiresInSeconds: SMS_CODE_TTL_SECONDS };
}
