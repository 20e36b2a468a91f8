import { type MeWithOrgs, normalizePhone } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { type ClientInfo, createSession, type NewSession } from "../../http/session.ts";
import { AppError } from "../../lib/app-error.ts";
import { getMe } from "./get-me.ts";
import { authLimiters, ensureNotBlocked, signInDelayMs } from "./limits.ts";
import { verifyPassword } from "./password.ts";
import { checkSmsCode, consumeSmsCode } from "./sms-codes.ts";

interface SignInResult {
  me: MeWithOrgs;
  session: NewSession;
}

async function openSession(ctx: AppContext, userId: string, client: ClientInfo): Promise<SignInResult> {
  const now = ctx.clock.now();
  const session = await createSession({ db: ctx.db, userId, ttlMs: ctx.config.sessionTtlMs, now, client });
  return { me: await getMe({ db: ctx.db, userId }), session };
}

/**
 * Sign-in with a username (any letter case) or a bound phone number, and the password. A wrong name and a wrong
 * password get the same answer, so the form does not reveal which accounts exist.
 */
export async function signInByPassword(opts: {
  ctx: AppContext;
  username: string;
  password: string;
  client: ClientInfo;
}): Promise<SignInResult> {
  const { ctx, client } = opts;
  const limits = authLimiters(ctx);
  const phone = normalizePhone(opts.username);
  const accountKey = phone ?? opts.username.toLowerCase();
  const ipKey = client.ip ?? "unknown";
  const pairKey = `${accountKey}|${ipKey}`;
  await ensureNotBlocked(limits.signInFailuresPerIp, ipKey);
  await ensureNotBlocked(limits.signInFailuresPerAccountIp, pairKey);
  // An account under attack from many addresses answers slowly, to everyone; it never refuses its owner.
  const accountFailures =
    limits.signInFailuresPerAccount.points - (await limits.signInFailuresPerAccount.peek(accountKey)).remaining;
  const delay = signInDelayMs(accountFailures);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  const [user] = await ctx.db
    .select({ id: schema.users.id, passwordHash: schema.users.passwordHash, disabledAt: schema.users.disabledAt })
    .from(schema.users)
    .where(phone ? eq(schema.users.phone, phone) : sql`lower(${schema.users.username}) = lower(${opts.username})`);
  const ok = await verifyPassword(user?.passwordHash, opts.password);
  if (!user || !ok) {
    await limits.signInFailuresPerAccountIp.hit(pairKey);
    await limits.signInFailuresPerAccount.hit(accountKey);
    await limits.signInFailuresPerIp.hit(ipKey);
    throw new AppError("invalid_credentials");
  }
  await limits.signInFailuresPerAccountIp.reset(pairKey);
  // Told only to someone who knows the password: a disabled account is not revealed to guessers.
  if (user.disabledAt) throw new AppError("account_disabled");
  return openSession(ctx, user.id, client);
}

/** Sign-in with a registered phone and the SMS code sent to it. */
export async function signInBySms(opts: {
  ctx: AppContext;
  phone: string;
  code: string;
  client: ClientInfo;
}): Promise<SignInResult> {
  const { ctx, phone, client } = opts;
  const limits = authLimiters(ctx);
  const ipKey = client.ip ?? "unknown";
  await ensureNotBlocked(limits.signInFailuresPerIp, ipKey);
  const now = ctx.clock.now();
  let userId: string;
  let codeId: string;
  try {
    const [user] = await ctx.db
      .select({ id: schema.users.id, disabledAt: schema.users.disabledAt })
      .from(schema.users)
      .where(eq(schema.users.phone, phone));
    if (!user) {
      throw new AppError("phone_not_registered", { details: [{ path: "phone", message: "phone_not_registered" }] });
    }
    userId = user.id;
    codeId = await checkSmsCode({ db: ctx.db, phone, purpose: "signin", code: opts.code, now });
    if (user.disabledAt) throw new AppError("account_disabled");
  } catch (e) {
    if (e instanceof AppError) await limits.signInFailuresPerIp.hit(ipKey);
    throw e;
  }
  return ctx.db.transaction(async (tx) => {
    await consumeSmsCode({ tx, id: codeId, now });
    const session = await createSession({ db: tx, userId, ttlMs: ctx.config.sessionTtlMs, now, client });
    return { me: await getMe({ db: tx, userId }), session };
  });
}
