/**
 * The platform operator account. There is no default password: it is created from the command line
 * (`create-operator`) or through a one-time setup link printed at start while no operator exists.
 */
import type { Edition, Locale, MeWithOrgs } from "@moonport/contracts";
import { type Db, schema, sha256Hex, type Tx } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { type ClientInfo, createSession, type NewSession, newToken } from "../../http/session.ts";
import { AppError } from "../../lib/app-error.ts";
import { recordOperatorAction } from "../admin/index.ts";
import { createUserWithOrg } from "./create-user.ts";
import { getMe } from "./get-me.ts";
import { hashPassword } from "./password.ts";

export async function operatorExists(db: Db | Tx): Promise<boolean> {
  const [row] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.role, "operator"));
  return Boolean(row);
}

/** Whether `userId` is the platform operator (the guard of operator routes asks). */
export async function isOperator(db: Db | Tx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ role: schema.users.role })
    .from(schema.users)
    .where(eq(schema.users.id, userId))
    .limit(1);
  return row?.role === "operator";
}

/** Creates the operator (with a personal organization like every account); refuses a second one. */
export async function createOperator(opts: {
  tx: Tx;
  username: string;
  password: string;
  edition: Edition;
  locale: Locale;
  now: Date;
  /** How the operator came to be, for the audit log: "cli:create-operator" or "setup-link". */
  via: string;
}): Promise<{ userId: string }> {
  const { tx } = opts;
  if (await operatorExists(tx)) throw new AppError("operator_exists");
  const passwordHash = await hashPassword(opts.password);
  const { userId } = await createUserWithOrg({ ...opts, passwordHash, role: "operator" });
  // Outstanding setup links lose their purpose once an operator exists.
  await tx.update(schema.setupTokens).set({ usedAt: opts.now }).where(isNull(schema.setupTokens.usedAt));
  await recordOperatorAction(tx, {
    actor: opts.via,
    action: "operator.create",
    target: userId,
    after: { username: opts.username },
  });
  return { userId };
}

/**
 * Retires every unused setup token and issues a fresh one (only its hash is stored). Returns undefined when an
 * operator already exists, so there is nothing to set up.
 */
export async function issueSetupToken(opts: { db: Db; now: Date }): Promise<string | undefined> {
  const { db, now } = opts;
  return db.transaction(async (tx) => {
    if (await operatorExists(tx)) return undefined;
    await tx.update(schema.setupTokens).set({ usedAt: now }).where(isNull(schema.setupTokens.usedAt));
    const token = newToken();
    await tx.insert(schema.setupTokens).values({ tokenHash: sha256Hex(token), createdAt: now });
    return token;
  });
}

/** Redeems a setup link: creates the operator and signs them in. The token works once. */
export async function setupOperator(opts: {
  ctx: AppContext;
  token: string;
  username: string;
  password: string;
  edition: Edition;
  locale: Locale;
  client: ClientInfo;
}): Promise<{ me: MeWithOrgs; session: NewSession }> {
  const { ctx, token } = opts;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const used = await tx
      .update(schema.setupTokens)
      .set({ usedAt: now })
      .where(and(eq(schema.setupTokens.tokenHash, sha256Hex(token)), isNull(schema.setupTokens.usedAt)))
      .returning({ tokenHash: schema.setupTokens.tokenHash });
    if (used.length === 0) {
      throw new AppError("setup_token_invalid");
    }
    const { userId } = await createOperator({ ...opts, tx, now, via: "setup-link" });
    const session = await createSession({ db: tx, userId, ttlMs: ctx.config.sessionTtlMs, now, client: opts.client });
    return { me: await getMe({ db: tx, userId }), session };
  });
}
