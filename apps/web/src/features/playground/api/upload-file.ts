import { MAX_PLAYGROUND_UPLOAD_BYTES, type PlaygroundFile } from "@moonport/contracts";
import { z } from "zod";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { ApiError, api } from "../../../lib/api.ts";

/** The fields of the Files API's FileObject (docs/api-compat.md §4) the playground reads. */
const UploadedFile = z.object({
  id: z.string(),
  bytes: z.number(),
  filename: z.string(),
  status: z.string(),
  status_details: z.string().optional(),
});

function csrfToken(): string | undefined {
  return /(?:^|; )mp_csrf=([^;]*)/.exec(document.cookie)?.[1];
}

/** The console's error body of a refused request as an ApiError (its message is in the user's language). */
async function refusal(res: Response): Promise<ApiError> {
  const e = ((await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null)?.error;
  return new ApiError(res.status, e?.code ?? "network", e?.message ?? res.statusText);
}

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
  const headers: Record<string, string> = { accept: "application/json" };
  const token = csrfToken();
  if (token) headers["x-csrf-token"] = token;
  const res = await fetch(`${orgApi(orgId)}/files`, {
    method: "POST",
    body: form,
    headers,
    credentials: "same-origin",
    signal,
  });
  if (!res.ok) throw await refusal(res);
  let uploaded = UploadedFile.parse(await res.json());
  for (let i = 0; uploaded.status === "processing" && i < 600; i++) {
    await new Promise((r) => setTimeout(r, Math.min(2000, 200 * (i + 1))));
    uploaded = await api(`${orgApi(orgId)}/files/${encodeURIComponent(uploaded.id)}`, { schema: UploadedFile, signal });
  }
  if (uploaded.status !== "ok") throw new ExtractionFailed(uploaded.status_details || uploaded.status);
  // The content is the extracted text as text/plain, like GET /v1/files/{id}/content (docs/api-compat.md §4).
  const text = await fetch(`${orgApi(orgId)}/files/${encodeURIComponent(uploaded.id)}/content`, {
    headers: { accept: "text/plain, application/json" },
    credentials: "same-origin",
    signal,
  });
  if (!text.ok) throw await refusal(text);
  const content = await text.text();
  return { file: { id: uploaded.id, filename: uploaded.filename, bytes: uploaded.bytes }, content };
}
