import type { Edition, Locale } from "@moonport/contracts";
import { newId, schema, type Tx } from "@moonport/db";
import { eq, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { createOrganization } from "../orgs/index.ts";

function personalOrgName(username: string, locale: Locale): string {
  return locale === "zh-CN" ? `${username} 的组织` : `${username}'s organization`;
}

/** Throws username_taken (on the `username` field) when another account has this name in any letter case. */
export async function assertUsernameFree(opts: { tx: Tx; username: string; exceptUserId?: string }) {
  const [row] = await opts.tx
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(sql`lower(${schema.users.username}) = lower(${opts.username})`);
  if (row && row.id !== opts.exceptUserId) throw usernameTaken();
}

export function usernameTaken(): AppError {
  return new AppError("username_taken", { details: [{ path: "username", message: "username_taken" }] });
}

export function phoneTaken(field = "phone"): AppError {
  return new AppError("phone_taken", { details: [{ path: field, message: "phone_taken" }] });
}

/**
 * Creates an account with its personal organization (role admin, default project, the edition's currency) and
 * opens the console on it. Runs inside the caller's transaction, so a taken name or phone leaves nothing behind.
 */
export async function createUserWithOrg(opts: {
  tx: Tx;
  username: string;
  passwordHash: string;
  phone?: string;
  role?: "user" | "operator";
  edition: Edition;
  locale: Locale;
  now: Date;
}): Promise<{ userId: string; orgId: string }> {
  const { tx, username, phone } = opts;
  await assertUsernameFree({ tx, username });
  if (phone) {
    const [owner] = await tx.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.phone, phone));
    if (owner) throw phoneTaken();
  }
  const userId = newId("usr");
  try {
    await tx.insert(schema.users).values({
      id: userId,
      username,
      phone: phone ?? null,
      passwordHash: opts.passwordHash,
      role: opts.role ?? "user",
      createdAt: opts.now,
      updatedAt: opts.now,
    });
  } catch (e) {
    // Two sign-ups racing for one name or phone: the unique index decides.
    if (isUniqueViolation(e, "users_username_lower_uq")) throw usernameTaken();
    if (isUniqueViolation(e, "users_phone_uq")) throw phoneTaken();
    throw e;
  }
  const { orgId } = await createOrganization({
    db: tx,
    name: personalOrgName(username, opts.locale),
    edition: opts.edition,
    creatorUserId: userId,
    creatorNickname: username,
    personal: true,
  });
  await tx.update(schema.users).set({ currentOrgId: orgId }).where(eq(schema.users.id, userId));
  return { userId, orgId };
}
