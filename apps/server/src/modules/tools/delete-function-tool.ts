import { schema } from "@moonport/db";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertWritable, ownTool } from "./function-tool-row.ts";

/** Deletes one of the caller's function tools. */
export async function deleteFunctionTool(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  toolId: string;
}): Promise<{ ok: true }> {
  assertWritable(opts.project);
  const rows = await opts.ctx.db
    .delete(schema.functionTools)
    .where(ownTool(opts.access, opts.project, opts.toolId))
    .returning({ id: schema.functionTools.id });
  if (!rows.length) throw new AppError("not_found");
  return { ok: true };
}
