import type { FunctionTool, UpdateFunctionToolRequest } from "@moonport/contracts";
import { schema } from "@moonport/db";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { nameTaken } from "./create-function-tool.ts";
import {
  assertWritable,
  checkFunctionToolDefinition,
  findOwnTool,
  ownTool,
  toFunctionTool,
} from "./function-tool-row.ts";

/** Changes one of the caller's function tools; the result must pass every rule a new tool passes. */
export async function updateFunctionTool(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  toolId: string;
  changes: UpdateFunctionToolRequest;
}): Promise<FunctionTool> {
  assertWritable(opts.project);
  const current = await findOwnTool(opts.ctx, opts.access, opts.project, opts.toolId);
  const next = {
    parameters: opts.changes.parameters ?? current.parameters,
    exampleInput: opts.changes.exampleInput ?? current.exampleInput,
  };
  await checkFunctionToolDefinition(next);
  try {
    const [row] = await opts.ctx.db
      .update(schema.functionTools)
      .set({ ...opts.changes, updatedAt: opts.ctx.clock.now() })
      .where(ownTool(opts.access, opts.project, opts.toolId))
      .returning();
    return toFunctionTool(row!);
  } catch (e) {
    if (isUniqueViolation(e, "function_tools_owner_name_idx")) throw nameTaken();
    throw e;
  }
}
