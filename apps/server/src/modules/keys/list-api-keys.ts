import type { ApiKeyRow } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { selectKeys, toKeyRow, visibleKeysWhere } from "./key-access.ts";

/** The caller's visible keys (access: organization members, then `visibleKeysWhere`), newest first, optionally of one project; one page. */
export async function listApiKeys(opts: {
  ctx: AppContext;
  access: OrgAccess;
  projectId?: string;
  page: number;
  pageSize: number;
}): Promise<{ items: ApiKeyRow[]; total: number; page: number; pageSize: number }> {
  const { db } = opts.ctx;
  const visible = await visibleKeysWhere(db, opts.access);
  const where = opts.projectId ? and(visible, eq(schema.apiKeys.projectId, opts.projectId)) : visible;
  const [total] = await db.select({ n: count() }).from(schema.apiKeys).where(where);
  const rows = await selectKeys(db)
    .where(where)
    .orderBy(desc(schema.apiKeys.createdAt), desc(schema.apiKeys.id))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return { items: rows.map(toKeyRow), total: total?.n ?? 0, page: opts.page, pageSize: opts.pageSize };
}
