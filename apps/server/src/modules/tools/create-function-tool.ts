import { FUNCTION_TOOL_LIMITS, type FunctionTool, type FunctionToolInput, vmsg } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, count, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { assertWritable, checkFunctionToolDefinition, toFunctionTool } from "./function-tool-row.ts";

export const nameTaken = () =>
  new AppError("validation_failed", { details: [{ path: "name", message: vmsg("tool_name_taken") }] });

/** Saves a new function tool for the caller in the project, after every §5 rule (schema and example included). */
export async function createFunctionTool(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  tool: Required<FunctionToolInput>;
}): Promise<FunctionTool> {
  assertWritable(opts.project);
  await checkFunctionToolDefinition(opts.tool);
  const t = schema.functionTools;
  const [n] = await opts.ctx.db
    .select({ n: count() })
    .from(t)
    .where(and(eq(t.userId, opts.access.userId), eq(t.projectId, opts.project.project.id)));
  if ((n?.n ?? 0) >= FUNCTION_TOOL_LIMITS.perProject) {
    throw new AppError("limit_reached", { params: { reason: `${FUNCTION_TOOL_LIMITS.perProject} function tools` } });
  }
  const now = opts.ctx.clock.now();
  try {
    const [row] = await opts.ctx.db
      .insert(t)
      .values({
        id: newId("fnt"),
        userId: opts.access.userId,
        orgId: opts.access.org.id,
        projectId: opts.project.project.id,
        ...opts.tool,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return toFunctionTool(row!);
  } catch (e) {
    if (isUniqueViolation(e, "function_tools_owner_name_idx")) throw nameTaken();
    throw e;
  }
}
