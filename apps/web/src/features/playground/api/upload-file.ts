import { MAX_PLAYGROUND_UPLOAD_BYTES, type PlaygroundFile } from "@moonport/contracts";
import { z } from "zod";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { api, apiText, apiUpload } from "../../../lib/api.ts";

/** The fields of the Files API's FileObject (docs/api-compat.md §4) the playground reads. */
const UploadedFile = z.object({
  id: z.string(),
  bytes: z.number(),
  filename: z.string(),
  status: z.string(),
  status_details: z.string().optional(),
});

export class UploadTooLarge extends Error {}
export class ExtractionFailed extends Error {}

/**
 * Uploads a file through the console Files API (multipart, purpose file-extract, for this project), waits for its
 * text to be extracted, and returns the file with its text — which the playground puts into the conversation as
 * a system message, the way the file-QA guide does with the API.
 */
export async function uploadForChat(
  orgId: string,
  projectId: string,
  file: File,
  signal?: AbortSignal,
): Promise<{ file: PlaygroundFile; content: string }> {
  if (file.size > MAX_PLAYGROUND_UPLOAD_BYTES) throw new UploadTooLarge();
  const form = new FormData();
  form.append("purpose", "file-extract");
  form.append("projectId", projectId);
  form.append("file", file, file.name);
  let uploaded = await apiUpload(`${orgApi(orgId)}/files`, form, { schema: UploadedFile, signal });
  for (let i = 0; uploaded.status === "processing" && i < 600; i++) {
    await new Promise((r) => setTimeout(r, Math.min(2000, 200 * (i + 1))));
    uploaded = await api(`${orgApi(orgId)}/files/${encodeURIComponent(uploaded.id)}`, { schema: UploadedFile, signal });
  }
  if (uploaded.status !== "ok") throw new ExtractionFailed(uploaded.status_details || uploaded.status);
  // The content is the extracted text as text/plain, like GET /v1/files/{id}/content (docs/api-compat.md §4).
  const content = await apiText(`${orgApi(orgId)}/files/${encodeURIComponent(uploaded.id)}/content`, { signal });
  return { file: { id: uploaded.id, filename: uploaded.filename, bytes: uploaded.bytes }, content };
}
