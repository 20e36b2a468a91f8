import type { AdminAuditEntry } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { count, desc, eq, ilike, or, type SQL } from "drizzle-orm";
import { likePattern } from "./list-organizations.ts";

const a = schema.operatorActions;

function whereOf(q: string): SQL | undefined {
  if (!q) return undefined;
  const like = likePattern(q);
  return or(ilike(a.action, like), eq(a.target, q), eq(a.actor, q), ilike(schema.users.username, like));
}

function toEntry(r: { row: typeof a.$inferSelect; actorName: string | null }): AdminAuditEntry {
  return {
    id: r.row.id,
    actor: r.row.actor,
    actorName: r.actorName,
    action: r.row.action,
    target: r.row.target,
    details: r.row.details,
    before: r.row.before,
    after: r.row.after,
    createdAt: r.row.createdAt.toISOString(),
  };
}

/** The audit log, newest first; `q` matches the action (substring), the target or actor id, or the actor's name. */
export async function listAuditLog(opts: { db: Db; q: string; page: number; pageSize: number }) {
  const where = whereOf(opts.q);
  const base = () => opts.db.select().from(a).leftJoin(schema.users, eq(schema.users.id, a.actor));
  const [[total], rows] = await Promise.all([
    opts.db.select({ n: count() }).from(a).leftJoin(schema.users, eq(schema.users.id, a.actor)).where(where),
    base()
      .where(where)
      .orderBy(desc(a.createdAt), desc(a.id))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
  ]);
  return {
    items: rows.map((r) => toEntry({ row: r.operator_actions, actorName: r.users?.username ?? null })),
    total: total?.n ?? 0,
    page: opts.page,
    pageSize: opts.pageSize,
  };
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The matching audit lines as CSV (up to 100,000, newest first), for an export. */
export async function exportAuditLog(opts: { db: Db; q: string }): Promise<string> {
  const rows = await opts.db
    .select()
    .from(a)
    .leftJoin(schema.users, eq(schema.users.id, a.actor))
    .where(whereOf(opts.q))
    .orderBy(desc(a.createdAt), desc(a.id))
    .limit(100_000);
  const lines = [["time", "actor", "actor_name", "action", "target", "before", "after", "details"].join(",")];
  for (const r of rows) {
    const e = toEntry({ row: r.operator_actions, actorName: r.users?.username ?? null });
    lines.push(
      [e.createdAt, e.actor, e.actorName, e.action, e.target, e.before, e.after, e.details].map(csvCell).join(","),
    );
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
