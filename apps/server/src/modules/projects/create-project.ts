import type { ProjectRow } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, count, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertOrgAdmin, getOrgAccess } from "../orgs/access.ts";
import { assertProjectNameFree, mapProjectNameViolation } from "./project-name.ts";
import { toProjectRow } from "./project-row.ts";

/** Creates a project (organization admins only) within the active-project quota; the creator administers it. */
export async function createProject(opts: {
  ctx: AppContext;
  userId: string;
  orgId: string;
  name: string;
  description: string;
}): Promise<ProjectRow> {
  const max = opts.ctx.config.limits.maxActiveProjects;
  return opts.ctx.db.transaction(async (tx) => {
    const access = await getOrgAccess(tx, opts);
    assertOrgAdmin(access);
    // Serializes concurrent creations so the quota holds.
    await tx
      .select({ id: schema.organizations.id })
      .from(schema.organizations)
      .where(eq(schema.organizations.id, opts.orgId))
      .for("update");
    const [active] = await tx
      .select({ n: count() })
      .from(schema.projects)
      .where(and(eq(schema.projects.orgId, opts.orgId), eq(schema.projects.status, "active")));
    if ((active?.n ?? 0) >= max) {
      throw new AppError("limit_reached", { params: { reason: `${max} active projects` } });
    }
    await assertProjectNameFree({ tx, orgId: opts.orgId, name: opts.name });
    const [project] = await tx
      .insert(schema.projects)
      .values({ id: newId("proj"), orgId: opts.orgId, name: opts.name, description: opts.description })
      .returning()
      .catch(mapProjectNameViolation);
    await tx.insert(schema.projectMembers).values({ projectId: project!.id, userId: opts.userId, role: "admin" });
    return toProjectRow(project!, "admin");
  });
}
