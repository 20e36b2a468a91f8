import type { ProjectRow } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, count, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertProjectNameFree, mapProjectNameViolation } from "./project-name.ts";
import { toProjectRow } from "./project-row.ts";

/** Creates a project (access: organization admins) within the active-project quota; the creator administers it. */
export async function createProject(opts: {
  ctx: AppContext;
  access: OrgAccess;
  name: string;
  description: string;
}): Promise<ProjectRow> {
  const max = opts.ctx.config.limits.maxActiveProjects;
  const orgId = opts.access.org.id;
  return opts.ctx.db.transaction(async (tx) => {
    // Serializes concurrent creations so the quota holds.
    await tx
      .select({ id: schema.organizations.id })
      .from(schema.organizations)
      .where(eq(schema.organizations.id, orgId))
      .for("update");
    const [active] = await tx
      .select({ n: count() })
      .from(schema.projects)
      .where(and(eq(schema.projects.orgId, orgId), eq(schema.projects.status, "active")));
    if ((active?.n ?? 0) >= max) {
      throw new AppError("limit_reached", { params: { reason: `${max} active projects` } });
    }
    await assertProjectNameFree({ tx, orgId, name: opts.name });
    const [project] = await tx
      .insert(schema.projects)
      .values({ id: newId("proj"), orgId, name: opts.name, description: opts.description })
      .returning()
      .catch(mapProjectNameViolation);
    await tx
      .insert(schema.projectMembers)
      .values({ projectId: project!.id, userId: opts.access.userId, role: "admin" });
    return toProjectRow(project!, "admin");
  });
}
