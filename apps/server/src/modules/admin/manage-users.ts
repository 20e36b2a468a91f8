import { type AdminUserDetail, type AdminUserPage, type AdminUserRow, maskPhone } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { and, count, desc, eq, gt, ilike, isNull, or, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { likePattern } from "./list-organizations.ts";
import { recordOperatorAction } from "./record-operator-action.ts";

const u = schema.users;

function liveSessions(now: Date) {
  return sql<number>`(select count(*) from sessions s where s.user_id = users.id and s.revoked_at is null
    and s.expires_at > ${now.toISOString()}::timestamptz)::int`;
}

function toRow(r: { user: typeof u.$inferSelect; orgs: number; sessions: number }): AdminUserRow {
  return {
    id: r.user.id,
    username: r.user.username,
    phoneMasked: r.user.phone ? maskPhone(r.user.phone) : null,
    role: r.user.role,
    createdAt: r.user.createdAt.toISOString(),
    disabledAt: r.user.disabledAt?.toISOString() ?? null,
    organizations: r.orgs,
    activeSessions: r.sessions,
  };
}

/** Users by username (substring, any case), exact id or exact phone (any format the sign-up accepts). */
export async function listUsers(opts: {
  db: Db;
  q: string;
  page: number;
  pageSize: number;
  now: Date;
}): Promise<AdminUserPage> {
  const q = opts.q;
  const digits = q.replace(/[\s-]/g, "");
  const where: SQL | undefined = q
    ? or(ilike(u.username, likePattern(q)), eq(u.id, q), eq(u.phone, digits.startsWith("+") ? digits : `+86${digits}`))
    : undefined;
  const [[total], rows] = await Promise.all([
    opts.db.select({ n: count() }).from(u).where(where),
    opts.db
      .select({
        user: u,
        orgs: sql<number>`(select count(*) from org_members m where m.user_id = users.id)::int`,
        sessions: liveSessions(opts.now),
      })
      .from(u)
      .where(where)
      .orderBy(desc(u.createdAt), desc(u.id))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
  ]);
  return { items: rows.map(toRow), total: total?.n ?? 0, page: opts.page, pageSize: opts.pageSize };
}

export async function getAdminUser(opts: { db: Db; userId: string; now: Date }): Promise<AdminUserDetail> {
  const [row] = await opts.db
    .select({
      user: u,
      orgs: sql<number>`(select count(*) from org_members m where m.user_id = users.id)::int`,
      sessions: liveSessions(opts.now),
    })
    .from(u)
    .where(eq(u.id, opts.userId));
  if (!row) throw new AppError("not_found");
  const [memberships, sessions] = await Promise.all([
    opts.db
      .select({ orgId: schema.orgMembers.orgId, name: schema.organizations.name, role: schema.orgMembers.role })
      .from(schema.orgMembers)
      .innerJoin(schema.organizations, eq(schema.organizations.id, schema.orgMembers.orgId))
      .where(eq(schema.orgMembers.userId, opts.userId)),
    opts.db
      .select({
        id: schema.sessions.id,
        ip: schema.sessions.ip,
        userAgent: schema.sessions.userAgent,
        lastSeenAt: schema.sessions.lastSeenAt,
      })
      .from(schema.sessions)
      .where(
        and(
          eq(schema.sessions.userId, opts.userId),
          isNull(schema.sessions.revokedAt),
          gt(schema.sessions.expiresAt, opts.now),
        ),
      )
      .orderBy(desc(schema.sessions.lastSeenAt)),
  ]);
  return {
    ...toRow(row),
    memberships,
    sessions: sessions.map((s) => ({ ...s, lastSeenAt: s.lastSeenAt.toISOString() })),
  };
}

/**
 * Disables (sign-in refused, every session revoked at once) or re-enables a user. The operator cannot disable
 * themselves or another operator: that is a job for the command line, where losing access cannot lock everyone out.
 */
export async function setUserDisabled(opts: {
  ctx: Pick<AppContext, "db" | "clock">;
  userId: string;
  operator: string;
  disable: boolean;
}) {
  const now = opts.ctx.clock.now();
  await opts.ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(u).where(eq(u.id, opts.userId)).for("update");
    if (!user) throw new AppError("not_found");
    if (opts.disable && (user.role === "operator" || user.id === opts.operator)) {
      throw new AppError("conflict", { params: { reason: "operators cannot be disabled from the back office" } });
    }
    if (Boolean(user.disabledAt) === opts.disable) return;
    await tx
      .update(u)
      .set({ disabledAt: opts.disable ? now : null })
      .where(eq(u.id, opts.userId));
    if (opts.disable) {
      await tx
        .update(schema.sessions)
        .set({ revokedAt: now })
        .where(and(eq(schema.sessions.userId, opts.userId), isNull(schema.sessions.revokedAt)));
    }
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: opts.disable ? "user.disable" : "user.enable",
      target: opts.userId,
      before: { disabledAt: user.disabledAt?.toISOString() ?? null },
      after: { disabledAt: opts.disable ? now.toISOString() : null },
    });
  });
  return getAdminUser({ db: opts.ctx.db, userId: opts.userId, now });
}

/** Signs the user out everywhere (every live session revoked). */
export async function revokeUserSessions(opts: {
  ctx: Pick<AppContext, "db" | "clock">;
  userId: string;
  operator: string;
}) {
  const now = opts.ctx.clock.now();
  await opts.ctx.db.transaction(async (tx) => {
    const [user] = await tx.select({ id: u.id }).from(u).where(eq(u.id, opts.userId));
    if (!user) throw new AppError("not_found");
    const revoked = await tx
      .update(schema.sessions)
      .set({ revokedAt: now })
      .where(and(eq(schema.sessions.userId, opts.userId), isNull(schema.sessions.revokedAt)))
      .returning({ id: schema.sessions.id });
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: "user.revoke_sessions",
      target: opts.userId,
      before: { activeSessions: revoked.length },
      after: { activeSessions: 0 },
    });
  });
  return getAdminUser({ db: opts.ctx.db, userId: opts.userId, now });
}
