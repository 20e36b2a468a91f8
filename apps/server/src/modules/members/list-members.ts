import { type MemberRow, maskPhone } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";

/**
 * Joined members, then open invitations as pending rows (access: organization admins). Organizations are small,
 * so both lists are read and one page is cut from their concatenation.
 */
export async function listMembers(opts: {
  ctx: AppContext;
  access: OrgAccess;
  page: number;
  pageSize: number;
  now?: Date;
}): Promise<{ items: MemberRow[]; total: number; page: number; pageSize: number }> {
  const { db } = opts.ctx;
  const orgId = opts.access.org.id;
  const joined = await db
    .select({
      userId: schema.orgMembers.userId,
      nickname: schema.orgMembers.nickname,
      role: schema.orgMembers.role,
      createdAt: schema.orgMembers.createdAt,
      phone: schema.users.phone,
    })
    .from(schema.orgMembers)
    .innerJoin(schema.users, eq(schema.users.id, schema.orgMembers.userId))
    .where(eq(schema.orgMembers.orgId, orgId))
    .orderBy(asc(schema.orgMembers.createdAt), asc(schema.orgMembers.userId));
  const pending = await db
    .select()
    .from(schema.invitations)
    .where(
      and(
        eq(schema.invitations.orgId, orgId),
        isNull(schema.invitations.acceptedAt),
        isNull(schema.invitations.revokedAt),
        gt(schema.invitations.expiresAt, opts.now ?? new Date()),
      ),
    )
    .orderBy(asc(schema.invitations.createdAt));
  const rows: MemberRow[] = [
    ...joined.map((m) => ({
      status: "joined" as const,
      userId: m.userId,
      invitationId: null,
      nickname: m.nickname,
      phoneMasked: m.phone ? maskPhone(m.phone) : null,
      role: m.role,
      createdAt: m.createdAt.toISOString(),
      expiresAt: null,
    })),
    ...pending.map((i) => ({
      status: "pending" as const,
      userId: null,
      invitationId: i.id,
      nickname: i.nickname,
      phoneMasked: maskPhone(i.phone),
      role: i.role,
      createdAt: i.createdAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
    })),
  ];
  const start = (opts.page - 1) * opts.pageSize;
  return {
    items: rows.slice(start, start + opts.pageSize),
    total: rows.length,
    page: opts.page,
    pageSize: opts.pageSize,
  };
}
