import type { ErrorCode, ErrorParam } from "@moonport/contracts";

/** The one error type domain code throws. It knows nothing of HTTP; `STATUS` in http/errors.ts does. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: Record<string, ErrorParam>;
  readonly details?: { path: string; message: string }[];
  readonly headers?: Record<string, string>;
  constructor(
    code: ErrorCode,
    opts: {
      params?: Record<string, ErrorParam>;
      /** Field errors; `message` is a validation key (see contracts/validation.ts) or plain text. */
      details?: { path: string; message: string }[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(code);
    this.code = code;
    this.params = opts.params ?? {};
    this.details = opts.details;
    this.headers = opts.headers;
  }
}

/** One field error: a shortcut for forms ("username" → "username_taken"). */
export function fieldError(code: ErrorCode, path: string, message: string): AppError {
  return new AppError(code, { details: [{ path, message }] });
}
