import type { FieldError } from "@moonport/contracts";
import { createParser } from "eventsource-parser";

/**
 * The web app's one request layer: every call to the console API (JSON, text, downloads, multipart uploads, SSE
 * streams) goes through this module, so the CSRF double-submit header, same-origin cookies and the error envelope
 * are handled in one place. Features keep their requests in `features/<name>/api/` and call these functions.
 */

/** An error from the console API, carrying the server's localized message and field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldError[] = [],
    readonly requestId?: string,
    /** Seconds the server asked the client to wait (`retry-after`), when it said so. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The CSRF token the server set (double-submit cookie); sent back as a header on every state-changing call. */
function csrfToken(): string | undefined {
  return /(?:^|; )mp_csrf=([^;]*)/.exec(document.cookie)?.[1];
}

function headersFor(method: string, accept: string, json: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept };
  if (json) headers["content-type"] = "application/json";
  if (method !== "GET") {
    const token = csrfToken();
    if (token) headers["x-csrf-token"] = token;
  }
  return headers;
}

const url = (path: string) => (path.startsWith("/") ? path : `/api/${path}`);

type ErrorEnvelope = { error?: { code?: string; message?: string; details?: FieldError[]; requestId?: string } };

/** A refused request's body (the console's error envelope, or anything else) as an ApiError. */
export function errorFrom(status: number, statusText: string, body: unknown, retryAfter: string | null = null) {
  const err = (body as ErrorEnvelope | undefined)?.error;
  return new ApiError(
    status,
    err?.code ?? "network",
    err?.message ?? statusText,
    err?.details,
    err?.requestId,
    Number(retryAfter ?? 0) || null,
  );
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

async function refusal(res: Response): Promise<ApiError> {
  return errorFrom(res.status, res.statusText, parseJson(await res.text()), res.headers.get("retry-after"));
}

interface Init {
  method?: string;
  signal?: AbortSignal;
}

async function send(path: string, init: Init & { accept: string; body?: unknown }): Promise<Response> {
  const method = init.method ?? (init.body !== undefined ? "POST" : "GET");
  // FormData (multipart, e.g. images) sets its own content type with the boundary.
  const form = typeof FormData !== "undefined" && init.body instanceof FormData;
  const res = await fetch(url(path), {
    method,
    headers: headersFor(method, init.accept, init.body !== undefined && !form),
    credentials: "same-origin",
    body: form ? (init.body as FormData) : init.body !== undefined ? JSON.stringify(init.body) : undefined,
    signal: init.signal,
  });
  if (!res.ok) throw await refusal(res);
  return res;
}

/**
 * A JSON call to /api. `schema` (a zod schema) parses the success body when given. A `FormData` body goes as
 * multipart; anything else as JSON.
 */
export async function api<T = unknown>(
  path: string,
  init: Init & { body?: unknown; schema?: { parse(v: unknown): T } } = {},
): Promise<T> {
  const res = await send(path, { ...init, accept: "application/json" });
  const data = parseJson(await res.text());
  return init.schema ? init.schema.parse(data) : (data as T);
}

/** A GET whose success body is text (a file's extracted content). */
export async function apiText(path: string, init: Init = {}): Promise<string> {
  return (await send(path, { ...init, accept: "text/plain, application/json" })).text();
}

/** A GET whose success body is a file to save (an export); a refusal still arrives as an ApiError. */
export async function apiBlob(path: string, init: Init = {}): Promise<Blob> {
  return (await send(path, { ...init, accept: "*/*" })).blob();
}

/**
 * A multipart POST. XMLHttpRequest rather than fetch: only it reports upload progress (`onProgress`, 0…1 as the
 * bytes leave the browser). An aborted `signal` cancels the upload with an AbortError, as fetch would.
 */
export function apiUpload<T>(
  path: string,
  form: FormData,
  init: { schema: { parse(v: unknown): T }; signal?: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (init.signal?.aborted) return reject(new DOMException("The upload was aborted.", "AbortError"));
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url(path));
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(headersFor("POST", "application/json", false))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) init.onProgress?.(e.loaded / e.total);
    };
    const onAbort = () => xhr.abort();
    init.signal?.addEventListener("abort", onAbort, { once: true });
    xhr.onloadend = () => init.signal?.removeEventListener("abort", onAbort);
    xhr.onabort = () => reject(new DOMException("The upload was aborted.", "AbortError"));
    xhr.onerror = () => reject(new ApiError(0, "network", xhr.statusText || "network error"));
    xhr.onload = () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(errorFrom(xhr.status, xhr.statusText, body, xhr.getResponseHeader("retry-after")));
        return;
      }
      try {
        resolve(init.schema.parse(body));
      } catch {
        reject(new ApiError(xhr.status, "bad_response", "unexpected response"));
      }
    };
    xhr.send(form);
  });
}

/**
 * A JSON POST answered with a server-sent event stream. A refusal before the stream starts throws ApiError;
 * `events` yields each event's data as it arrives. Aborting `signal` closes the connection (which stops the
 * work on the server) and makes the pending read throw.
 */
export async function apiStream(
  path: string,
  body: unknown,
  signal: AbortSignal,
): Promise<{ requestId: string | null; events: AsyncGenerator<string> }> {
  const res = await send(path, { method: "POST", accept: "text/event-stream", body, signal });
  if (!res.body) throw new ApiError(res.status, "network", res.statusText);
  return { requestId: res.headers.get("msh-request-id"), events: sseData(res.body) };
}

/** The data of each event of an SSE body, in order (the one SSE parser of the app). */
export async function* sseData(body: NonNullable<Response["body"]>): AsyncGenerator<string> {
  const queue: string[] = [];
  const parser = createParser({ onEvent: (e) => queue.push(e.data) });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(value);
      while (queue.length) yield queue.shift()!;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A request outside /api (a card provider's tokenization endpoint): sent as given, without the CSRF token, which
 * must not leave the site. Here so that `fetch` has one home in the app.
 */
export function externalFetch(target: string, init: RequestInit): Promise<Response> {
  return fetch(target, init);
}
