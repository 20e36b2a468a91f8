import { schema, type Tx } from "@moonport/db";
import { and, eq, ne, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";

/** The unique index `projects_org_name_lower_uq` on (org_id, lower(name)) is the final word when two requests race. */
const NAME_INDEX = "projects_org_name_lower_uq";

function projectNameTaken(): AppError {
  return new AppError("project_name_taken", { details: [{ path: "name", message: "project_name_taken" }] });
}

/**
 * Project names are unique within an organization in any letter case, archived projects included: an archived
 * project stays in lists, usage and bills under its name, and a second project of that name would make them
 * ambiguous.
 */
export async function assertProjectNameFree(opts: {
  tx: Tx;
  orgId: string;
  name: string;
  /** The project being renamed (it may keep its own name in another letter case). */
  exceptProjectId?: string;
}): Promise<void> {
  const [clash] = await opts.tx
    .select({ id: schema.projects.id })
    .from(schema.projects)
    .where(
      and(
        eq(schema.projects.orgId, opts.orgId),
        sql`lower(${schema.projects.name}) = lower(${opts.name})`,
        opts.exceptProjectId ? ne(schema.projects.id, opts.exceptProjectId) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw projectNameTaken();
}

/** Maps the unique index's violation (a concurrent request took the name first) to the same field error. */
export function mapProjectNameViolation(e: unknown): never {
  if (isUniqueViolation(e, NAME_INDEX)) throw projectNameTaken();
  throw e;
}
