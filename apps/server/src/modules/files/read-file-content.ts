import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { getFile } from "./get-file.ts";

/** How long a content request waits for an extraction that is still running. */
export const CONTENT_WAIT_MS = 30_000;
const POLL_MS = 200;

/**
 * The extracted text as a stream. Code written for the original API reads the content right after the upload, so
 * a file still `processing` is waited for (up to CONTENT_WAIT_MS) rather than refused at once.
 */
export async function readFileContent(opts: {
  ctx: AppContext;
  orgId: string;
  fileId: string;
  waitMs?: number;
  signal?: AbortSignal;
}): Promise<Readable> {
  const { ctx, orgId, fileId } = opts;
  const deadline = performance.now() + (opts.waitMs ?? CONTENT_WAIT_MS);
  let file = await getFile(ctx, orgId, fileId);
  while (file.status === "processing" && performance.now() < deadline && !opts.signal?.aborted) {
    await sleep(POLL_MS);
    file = await getFile(ctx, orgId, fileId);
  }
  if (file.purpose !== "file-extract") throw new AppError("file_no_content");
  if (file.status === "processing") throw new AppError("file_processing");
  if (file.status === "error") throw new AppError("file_extract_failed", { params: { reason: file.statusDetails } });
  const body = file.contentKey ? await ctx.files.store.open(file.contentKey) : undefined;
  if (!body) throw new AppError("file_extract_failed", { params: { reason: "the extracted text is missing" } });
  return body;
}
