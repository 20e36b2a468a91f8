import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { contentKeyOf } from "./file-object.ts";

/** Longest status_details kept (the reason of a failed extraction). */
const MAX_DETAILS = 500;

/**
 * The `files.extract` job: runs the file through the extraction pool and records the outcome. A file that cannot
 * be read ends `error` with the reason and the job succeeds (retrying would fail the same way); only failures of
 * the platform itself (store, database, a shutdown mid-extraction) throw, so the runner retries the job later.
 * Idempotent: a file that is no longer `processing` (finished, or deleted) is left alone.
 */
export async function extractFile(ctx: AppContext, fileId: string): Promise<void> {
  const [file] = await ctx.db.select().from(schema.files).where(eq(schema.files.id, fileId));
  if (file?.status !== "processing") return;
  const result = await ctx.files.store.withLocalCopy(file.blobKey, (path) =>
    ctx.files.extractor.extract({ path, filename: file.filename, batch: file.purpose === "batch" }),
  );
  if (!result.ok && "aborted" in result && result.aborted) throw new Error(result.reason);

  const contentKey = contentKeyOf(file.orgId, file.id);
  if (result.ok && file.purpose === "file-extract") await ctx.files.store.putText(contentKey, result.text);
  const updated = await ctx.db
    .update(schema.files)
    .set(
      result.ok
        ? {
            status: "ok",
            statusDetails: "",
            contentKey: file.purpose === "file-extract" ? contentKey : null,
            contentChars: file.purpose === "file-extract" ? result.text.length : null,
            processedAt: ctx.clock.now(),
          }
        : { status: "error", statusDetails: result.reason.slice(0, MAX_DETAILS), processedAt: ctx.clock.now() },
    )
    .where(and(eq(schema.files.id, fileId), eq(schema.files.status, "processing")))
    .returning({ id: schema.files.id });
  // Deleted while it was being extracted: the text written above has no row any more.
  if (!updated.length && result.ok) await ctx.files.store.remove(contentKey);
  ctx.log.info({ fileId, status: result.ok ? "ok" : "error" }, "file extracted");
}
