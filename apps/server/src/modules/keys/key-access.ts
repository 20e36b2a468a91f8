import type { ApiKeyRow } from "@moonport/contracts";
import { type Db, schema, type Tx } from "@moonport/db";
import { and, eq, inArray, isNull, or, type SQL } from "drizzle-orm";
import { type OrgAccess, visibleProjects } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";

/** The object-level rule of the key routes, as their declarations show it (http/route.ts `objectRule`). */
export const KEY_VISIBILITY =
  "organization admins: every key; project admins: the keys of their projects; project members: the keys they " +
  "created; any other key answers 404";

/**
 * Which keys a caller sees (and may manage): organization admins all of them; project admins every key of their
 * projects; project members the keys they created in their projects. This is the key routes' object-level rule
 * (`KEY_VISIBILITY`): the route checks organization membership, this the key itself.
 */
export async function visibleKeysWhere(db: Db | Tx, access: OrgAccess): Promise<SQL> {
  const base = and(eq(schema.apiKeys.orgId, access.org.id), isNull(schema.apiKeys.deletedAt))!;
  const visible = await visibleProjects(db, access);
  if (visible.all) return base;
  const adminOf = [...visible.roles].filter(([, r]) => r === "admin").map(([id]) => id);
  const memberOf = [...visible.roles].filter(([, r]) => r === "member").map(([id]) => id);
  return and(
    base,
    or(
      inArray(schema.apiKeys.projectId, [...adminOf, "-"]),
      and(inArray(schema.apiKeys.projectId, [...memberOf, "-"]), eq(schema.apiKeys.createdBy, access.userId)),
    ),
  )!;
}

const keyColumns = {
  id: schema.apiKeys.id,
  name: schema.apiKeys.name,
  createdAt: schema.apiKeys.createdAt,
  createdBy: schema.apiKeys.createdBy,
  mask: schema.apiKeys.mask,
  lastUsedAt: schema.apiKeys.lastUsedAt,
  status: schema.apiKeys.status,
  projectId: schema.projects.id,
  projectName: schema.projects.name,
  projectStatus: schema.projects.status,
  creatorNickname: schema.orgMembers.nickname,
};

export function selectKeys(db: Db | Tx) {
  return db
    .select(keyColumns)
    .from(schema.apiKeys)
    .innerJoin(schema.projects, eq(schema.projects.id, schema.apiKeys.projectId))
    .leftJoin(
      schema.orgMembers,
      and(eq(schema.orgMembers.orgId, schema.apiKeys.orgId), eq(schema.orgMembers.userId, schema.apiKeys.createdBy)),
    );
}

type KeyRecord = Awaited<ReturnType<ReturnType<typeof selectKeys>["execute"]>>[number];

export function toKeyRow(r: KeyRecord): ApiKeyRow {
  return {
    id: r.id,
    name: r.name,
    createdAt: r.createdAt.toISOString(),
    creator: { userId: r.createdBy, nickname: r.creatorNickname },
    mask: r.mask,
    project: { id: r.projectId, name: r.projectName, status: r.projectStatus },
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    status: r.status,
    canManage: r.projectStatus === "active",
  };
}

/** One visible key, or not_found (missing and out-of-reach look the same). */
export async function getVisibleKey(db: Db | Tx, access: OrgAccess, keyId: string): Promise<ApiKeyRow> {
  const [row] = await selectKeys(db)
    .where(and(await visibleKeysWhere(db, access), eq(schema.apiKeys.id, keyId)))
    .limit(1);
  if (!row) throw new AppError("not_found");
  return toKeyRow(row);
}
