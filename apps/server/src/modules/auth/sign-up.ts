import type { Edition, Locale, MeWithOrgs } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type ClientInfo, createSession, type NewSession } from "../../http/session.ts";
import { grantSignupVoucher } from "../billing/index.ts";
import { createUserWithOrg } from "./create-user.ts";
import { getMe } from "./get-me.ts";
import { authLimiters, ensureNotBlocked } from "./limits.ts";
import { hashPassword } from "./password.ts";
import { checkSmsCode, consumeSmsCode } from "./sms-codes.ts";

interface SignUpResult {
  me: MeWithOrgs;
  session: NewSession;
}

/**
 * Sign-ups per IP address (hour and day windows). Checked before any work and counted only once an account
 * exists, so a taken name or a typo does not use up the allowance.
 */
async function checkSignUpAllowance(ctx: AppContext, client: ClientInfo): Promise<void> {
  const l = authLimiters(ctx);
  const ip = client.ip ?? "unknown";
  await ensureNotBlocked(l.signUpsPerIpDay, ip);
  await ensureNotBlocked(l.signUpsPerIpHour, ip);
}

async function countSignUp(ctx: AppContext, client: ClientInfo): Promise<void> {
  const l = authLimiters(ctx);
  const ip = client.ip ?? "unknown";
  await l.signUpsPerIpHour.hit(ip);
  await l.signUpsPerIpDay.hit(ip);
}

/** Sign-up with username and password: the account, its personal organization and a session, in one transaction. */
export async function signUpByPassword(opts: {
  ctx: AppContext;
  username: string;
  password: string;
  edition: Edition;
  locale: Locale;
  client: ClientInfo;
}): Promise<SignUpResult> {
  const { ctx } = opts;
  await checkSignUpAllowance(ctx, opts.client);
  const passwordHash = await hashPassword(opts.password);
  const now = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    const { userId, orgId } = await createUserWithOrg({ tx, ...opts, passwordHash, now });
    await grantSignupVoucher({ ctx, tx, orgId, now });
    const session = await createSession({ db: tx, userId, ttlMs: ctx.config.sessionTtlMs, now, client: opts.client });
    return { me: await getMe({ db: tx, userId }), session };
  });
  await countSignUp(ctx, opts.client);
  return result;
}

/** Sign-up with a phone verified by SMS code, plus username and password. */
export async function signUpByPhone(opts: {
  ctx: AppContext;
  phone: string;
  code: string;
  username: string;
  password: string;
  edition: Edition;
  locale: Locale;
  client: ClientInfo;
}): Promise<SignUpResult> {
  const { ctx, phone } = opts;
  await checkSignUpAllowance(ctx, opts.client);
  const now = ctx.clock.now();
  const codeId = await checkSmsCode({ db: ctx.db, phone, purpose: "signup", code: opts.code, now });
  const passwordHash = await hashPassword(opts.password);
  const result = await ctx.db.transaction(async (tx) => {
    const { userId, orgId } = await createUserWithOrg({ tx, ...opts, passwordHash, now });
    await grantSignupVoucher({ ctx, tx, orgId, now });
    await consumeSmsCode({ tx, id: codeId, now });
    const session = await createSession({ db: tx, userId, ttlMs: ctx.config.sessionTtlMs, now, client: opts.client });
    return { me: await getMe({ db: tx, userId }), session };
  });
  await countSignUp(ctx, opts.client);
  return result;
}
