import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { FileRow } from "./file-object.ts";

/** A file of the organization; another organization's file is `not_found`, like a missing one. */
export async function getFile(ctx: AppContext, orgId: string, fileId: string): Promise<FileRow> {
  const [row] = await ctx.db
    .select()
    .from(schema.files)
    .where(and(eq(schema.files.id, fileId), eq(schema.files.orgId, orgId)));
  if (!row) throw new AppError("not_found");
  return row;
}
