import type { FieldError } from "@moonport/contracts";

/** An error from the console API, carrying the server's localized message and field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldError[] = [],
    readonly requestId?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The CSRF token the server set (double-submit cookie), for requests made without `api()` (uploads with progress). */
export function csrfToken(): string | undefined {
  const m = /(?:^|; )mp_csrf=([^;]*)/.exec(document.cookie);
  return m?.[1];
}

/**
 * The one fetch wrapper for /api: same-origin cookies, the CSRF header on every state-changing call, and the
 * error envelope turned into an ApiError. `schema` (a zod schema) parses the success body when given. A `FormData`
 * body goes as multipart; anything else as JSON.
 */
export async function api<T = unknown>(
  path: string,
  init: { method?: string; body?: unknown; schema?: { parse(v: unknown): T }; signal?: AbortSignal } = {},
): Promise<T> {
  const method = init.method ?? (init.body !== undefined ? "POST" : "GET");
  const headers: Record<string, string> = { accept: "application/json" };
  // FormData (multipart, e.g. images) sets its own content type with the boundary.
  const form = typeof FormData !== "undefined" && init.body instanceof FormData;
  if (init.body !== undefined && !form) headers["content-type"] = "application/json";
  if (method !== "GET") {
    const token = csrfToken();
    if (token) headers["x-csrf-token"] = token;
  }
  const res = await fetch(path.startsWith("/") ? path : `/api/${path}`, {
    method,
    headers,
    credentials: "same-origin",
    body: form ? (init.body as FormData) : init.body !== undefined ? JSON.stringify(init.body) : undefined,
    signal: init.signal,
  });
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; details?: FieldError[]; requestId?: string } })
      ?.error;
    throw new ApiError(
      res.status,
      err?.code ?? "network",
      err?.message ?? res.statusText,
      err?.details,
      err?.requestId,
    );
  }
  return init.schema ? init.schema.parse(data) : (data as T);
}
