import type { Edition, Locale, MeWithOrgs } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type ClientInfo, createSession, type NewSession } from "../../http/session.ts";
import { createUserWithOrg } from "./create-user.ts";
import { getMe } from "./get-me.ts";
import { hashPassword } from "./password.ts";
import { checkSmsCode, consumeSmsCode } from "./sms-codes.ts";

interface SignUpResult {
  me: MeWithOrgs;
  session: NewSession;
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
  const passwordHash = await hashPassword(opts.password);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const { userId } = await createUserWithOrg({ tx, ...opts, passwordHash, now });
    const session = await createSession({ db: tx, userId, ttlMs: ctx.config.sessionTtlMs, now, client: opts.client });
    return { me: await getMe({ db: tx, userId }), session };
  });
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
  const now = ctx.clock.now();
  const codeId = await checkSmsCode({ db: ctx.db, phone, purpose: "signup", code: opts.code, now });
  const passwordHash = await hashPassword(opts.password);
  return ctx.db.transaction(async (tx) => {
    const { userId } = await createUserWithOrg({ tx, ...opts, passwordHash, now });
    await consumeSmsCode({ tx, id: codeId, now });
    const session = await createSession({ db: tx, userId, ttlMs: ctx.config.sessionTtlMs, now, client: opts.client });
    return { me: await getMe({ db: tx, userId }), session };
  });
}
