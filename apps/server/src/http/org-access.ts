/**
 * The console's role model in one place (modules/README.md "Console roles"). Every console domain function starts
 * here. Anything outside the caller's reach is `not_found`, exactly like a missing object, so a denial never
 * tells whether the object exists; `forbidden` is used only where the caller can already see the object.
 */
import type { OrgRole, ProjectRole } from "@moonport/contracts";
import { type Db, schema, type Tx } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import { AppError } from "../lib/app-error.ts";

export type Organization = typeof schema.organizations.$inferSelect;
export type Project = typeof schema.projects.$inferSelect;

export interface OrgAccess {
  userId: string;
  org: Organization;
  role: OrgRole;
}

export interface ProjectAccess {
  project: Project;
  /** Organization admins act as admins of every project. */
  role: ProjectRole;
}

export async function getOrgAccess(db: Db | Tx, opts: { userId: string; orgId: string }): Promise<OrgAccess> {
  const [row] = await db
    .select({ org: schema.organizations, role: schema.orgMembers.role })
    .from(schema.orgMembers)
    .innerJoin(schema.organizations, eq(schema.organizations.id, schema.orgMembers.orgId))
    .where(and(eq(schema.orgMembers.orgId, opts.orgId), eq(schema.orgMembers.userId, opts.userId)))
    .limit(1);
  if (!row) throw new AppError("not_found");
  return { userId: opts.userId, org: row.org, role: row.role };
}

export async function getProjectAccess(db: Db | Tx, access: OrgAccess, projectId: string): Promise<ProjectAccess> {
  const [project] = await db
    .select()
    .from(schema.projects)
    .where(and(eq(schema.projects.id, projectId), eq(schema.projects.orgId, access.org.id)))
    .limit(1);
  if (!project) throw new AppError("not_found");
  if (access.role === "admin") return { project, role: "admin" };
  const [pm] = await db
    .select({ role: schema.projectMembers.role })
    .from(schema.projectMembers)
    .where(and(eq(schema.projectMembers.projectId, projectId), eq(schema.projectMembers.userId, access.userId)))
    .limit(1);
  if (!pm) throw new AppError("not_found");
  return { project, role: pm.role };
}

/** Archived projects are read-only: every write fails with this, whoever asks. */
export function assertProjectActive(project: Project): void {
  if (project.status !== "active") throw new AppError("project_archived");
}

/** Projects the caller can see with their role there; organization admins see all. */
export async function visibleProjects(
  db: Db | Tx,
  access: OrgAccess,
): Promise<{ all: boolean; roles: Map<string, ProjectRole> }> {
  if (access.role === "admin") return { all: true, roles: new Map() };
  const rows = await db
    .select({ projectId: schema.projectMembers.projectId, role: schema.projectMembers.role })
    .from(schema.projectMembers)
    .innerJoin(schema.projects, eq(schema.projects.id, schema.projectMembers.projectId))
    .where(and(eq(schema.projectMembers.userId, access.userId), eq(schema.projects.orgId, access.org.id)));
  return { all: false, roles: new Map(rows.map((r) => [r.projectId, r.role])) };
}
