import type { FunctionToolList } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { toFunctionTool } from "./function-tool-row.ts";

/** The caller's function tools in the project, by name (at most FUNCTION_TOOL_LIMITS.perProject). */
export async function listFunctionTools(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
}): Promise<FunctionToolList> {
  const t = schema.functionTools;
  const rows = await opts.ctx.db
    .select()
    .from(t)
    .where(and(eq(t.userId, opts.access.userId), eq(t.projectId, opts.project.project.id)))
    .orderBy(asc(t.name));
  return { items: rows.map(toFunctionTool) };
}
