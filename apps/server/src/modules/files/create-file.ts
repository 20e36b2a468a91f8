import { FILE_LIMITS, FILE_PURPOSES, type FileObject, type FilePurpose } from "@moonport/contracts";
import { type Db, newId, schema, type Tx } from "@moonport/db";
import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { assertProjectActive } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { isImageName, looksLikeImage, looksLikeVideo } from "./extract/detect.ts";
import { blobKeyOf, toFileObject } from "./file-object.ts";
import type { ReceivedUpload } from "./receive-upload.ts";

export const EXTRACT_JOB = "files.extract";

export function parsePurpose(value: string | undefined): FilePurpose {
  if (!value || !(FILE_PURPOSES as readonly string[]).includes(value)) throw new AppError("file_purpose_invalid");
  return value as FilePurpose;
}

/** Files of the organization and their bytes. */
export async function fileUsage(db: Db | Tx, orgId: string): Promise<{ files: number; bytes: number }> {
  const [row] = await db
    .select({ files: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(${schema.files.bytes}), 0)::text` })
    .from(schema.files)
    .where(eq(schema.files.orgId, orgId));
  return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) };
}

function checkQuota(usage: { files: number; bytes: number }, bytes: number) {
  if (usage.files >= FILE_LIMITS.maxFiles) {
    throw new AppError("file_count_exceeded", { params: { max: FILE_LIMITS.maxFiles } });
  }
  if (usage.bytes + bytes > FILE_LIMITS.maxBytes)
    throw new AppError("file_storage_exceeded", { params: { max: "10 GB" } });
}

function checkPurposeMatches(purpose: FilePurpose, upload: ReceivedUpload) {
  if (purpose === "image" && !looksLikeImage(upload.head)) {
    throw new AppError("file_type_mismatch", {
      params: { reason: isImageName(upload.filename) ? "the content is not a supported image" : "not an image" },
    });
  }
  if (purpose === "video" && !looksLikeVideo(upload.head)) {
    throw new AppError("file_type_mismatch", { params: { reason: "not a video" } });
  }
  if (purpose === "batch" && !upload.filename.toLowerCase().endsWith(".jsonl")) {
    throw new AppError("file_type_mismatch", { params: { reason: "batch input must be a .jsonl file" } });
  }
}

/**
 * Refuses a file for an archived project (read-only like every other write to it). `lock` holds the project row
 * until the transaction ends, so an archive cannot commit between this check and the insert.
 */
async function checkProjectActive(db: Db | Tx, orgId: string, projectId: string, lock = false) {
  const query = db
    .select()
    .from(schema.projects)
    .where(and(eq(schema.projects.id, projectId), eq(schema.projects.orgId, orgId)));
  const [project] = await (lock ? query.for("share") : query);
  if (!project) throw new AppError("not_found");
  assertProjectActive(project);
}

/**
 * Stores a received upload as a file of the organization and queues its extraction. The project (an archived one
 * is refused) and the quotas are checked before the copy (a refused upload costs no storage traffic) and again
 * under row locks with the insert, so a concurrent archive or concurrent uploads cannot slip past them. On any failure the stored blob is removed: a row exists
 * exactly when its blob does. The temporary upload is always discarded.
 */
export async function createFile(opts: {
  ctx: AppContext;
  orgId: string;
  projectId: string | null;
  uploadedBy: string | null;
  apiKeyId: string | null;
  purpose: FilePurpose;
  upload: ReceivedUpload;
}): Promise<FileObject> {
  const { ctx, orgId, upload, purpose } = opts;
  const store = ctx.files.store;
  try {
    if (opts.projectId) await checkProjectActive(ctx.db, orgId, opts.projectId);
    checkPurposeMatches(purpose, upload);
    checkQuota(await fileUsage(ctx.db, orgId), upload.bytes);
    const id = newId("file");
    const blobKey = blobKeyOf(orgId, id);
    await store.putFile(blobKey, upload.tmpPath, upload.bytes);
    try {
      const row = await withTransaction(ctx, async (tx, afterCommit) => {
        if (opts.projectId) await checkProjectActive(tx, orgId, opts.projectId, true);
        await tx
          .select({ id: schema.organizations.id })
          .from(schema.organizations)
          .where(eq(schema.organizations.id, orgId))
          .for("update");
        checkQuota(await fileUsage(tx, orgId), upload.bytes);
        const extract = purpose === "file-extract" || purpose === "batch";
        const [inserted] = await tx
          .insert(schema.files)
          .values({
            id,
            orgId,
            projectId: opts.projectId,
            uploadedBy: opts.uploadedBy,
            apiKeyId: opts.apiKeyId,
            filename: upload.filename,
            bytes: upload.bytes,
            purpose,
            status: extract ? "processing" : "ok",
            blobKey,
            createdAt: ctx.clock.now(),
            processedAt: extract ? null : ctx.clock.now(),
          })
          .returning();
        if (extract) {
          await ctx.jobs.enqueue({ name: EXTRACT_JOB, payload: { fileId: id }, key: `${EXTRACT_JOB}:${id}` }, { tx });
          // Start now rather than at the runner's next poll; the job row makes it survive a restart either way.
          afterCommit(() => kickExtraction(ctx));
        }
        return inserted!;
      });
      return toFileObject(row);
    } catch (err) {
      await store.remove(blobKey).catch((e) => ctx.log.error({ err: e, blobKey }, "orphan file blob not removed"));
      throw err;
    }
  } finally {
    await upload.discard();
  }
}

/** Runs due jobs now (extraction among them) without waiting for the runner's poll. */
export function kickExtraction(ctx: AppContext) {
  void ctx.jobs.runDue().catch((err) => ctx.log.error({ err }, "file extraction kick failed"));
}
