import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { getFile } from "./get-file.ts";
import { canDeleteFile } from "./list-files.ts";

/**
 * Deletes the row first, then the blobs: once the row is gone nobody can reach the file, and an extraction still
 * running finds no row to update (extract-file.ts removes what it wrote). A blob whose removal fails is logged;
 * the quota is freed either way because it counts rows.
 */
export async function deleteFile(opts: {
  ctx: AppContext;
  orgId: string;
  fileId: string;
  /** The console caller (uploader or organization admin may delete); absent for an API key of the organization. */
  access?: OrgAccess;
}): Promise<{ id: string; object: "file"; deleted: true }> {
  const { ctx, orgId, fileId } = opts;
  const file = await getFile(ctx, orgId, fileId);
  if (opts.access && !canDeleteFile(opts.access, file)) throw new AppError("forbidden");
  const [gone] = await ctx.db
    .delete(schema.files)
    .where(and(eq(schema.files.id, fileId), eq(schema.files.orgId, orgId)))
    .returning();
  if (!gone) throw new AppError("not_found");
  for (const key of [gone.blobKey, gone.contentKey].filter((k): k is string => !!k)) {
    await ctx.files.store.remove(key).catch((err) => ctx.log.error({ err, key }, "file blob not removed"));
  }
  return { id: fileId, object: "file", deleted: true };
}
