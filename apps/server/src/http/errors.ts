import {
  ERROR_MESSAGES,
  type ErrorCode,
  errorMessage,
  type FieldError,
  type Locale,
  translateValidation,
} from "@moonport/contracts";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";
import { AppError } from "../lib/app-error.ts";

export const STATUS = {
  validation_failed: 400,
  bad_request: 400,
  unauthenticated: 401,
  session_expired: 401,
  csrf_failed: 403,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  conflict: 409,
  rate_limited: 429,
  invalid_credentials: 401,
  account_disabled: 403,
  wrong_password: 400,
  username_taken: 409,
  phone_taken: 409,
  phone_not_registered: 404,
  phone_not_bound: 400,
  old_sms_code_required: 400,
  not_a_member: 403,
  sms_code_invalid: 400,
  sms_code_expired: 400,
  sms_too_many_attempts: 429,
  sms_send_failed: 502,
  setup_token_invalid: 400,
  operator_exists: 409,
  limit_reached: 409,
  bills_too_old: 400,
  export_not_ready: 409,
  export_too_early: 400,
  export_unavailable: 409,
  last_admin: 409,
  invitation_invalid: 404,
  invitation_phone_mismatch: 403,
  already_member: 409,
  project_archived: 409,
  project_name_taken: 409,
  default_project_archive: 409,
  riddle_locked: 409,
  riddle_prompt_rejected: 400,
  riddle_not_solved: 409,
  riddle_reward_claimed: 409,
  playground_rate_limited: 429,
  tool_test_runs_rate_limited: 429,
  tool_runs_busy_org: 429,
  tool_runs_busy_user: 429,
  tool_runs_busy_server: 429,
  playground_daily_budget_exceeded: 403,
  playground_monthly_budget_exceeded: 403,
  playground_insufficient_balance: 429,
  playground_request_invalid: 400,
  mcp_sync_unauthorized: 502,
  mcp_sync_server_error: 502,
  mcp_sync_network_error: 502,
  playground_model_failed: 502,
  file_too_large: 413,
  file_empty: 400,
  file_missing: 400,
  file_purpose_invalid: 400,
  file_type_mismatch: 400,
  file_count_exceeded: 409,
  file_storage_exceeded: 409,
  file_processing: 409,
  file_extract_failed: 422,
  file_no_content: 400,
  web_unavailable: 503,
  payment_pending: 409,
  payment_monthly_limit: 429,
  payment_retry: 402,
  payment_provider_unavailable: 503,
  payment_not_cancellable: 409,
  pay_type_unavailable: 400,
  pay_type_not_configured: 400,
  card_required: 400,
  card_invalid: 402,
  customer_info_required: 400,
  card_delete_failed: 409,
  voucher_code_invalid: 404,
  voucher_code_used: 409,
  voucher_code_expired: 410,
  voucher_code_wrong_edition: 400,
  refund_not_refundable: 409,
  refund_exceeds_payment: 409,
  refund_invoice_held: 409,
  refund_exceeds_balance: 409,
  refund_not_requested: 409,
  refund_not_failed: 409,
  refund_not_manual: 409,
  verification_required: 403,
  verification_rejected: 422,
  verification_unavailable: 503,
  verification_already_verified: 409,
  verification_needs_personal: 409,
  verification_in_review: 409,
  verification_cancel_failed: 409,
  verification_not_pending: 409,
  filing_not_allowed: 403,
  invoice_failed: 422,
  invoice_needs_verification: 403,
  invoice_state: 409,
  red_letter_state: 409,
  red_letter_not_yours: 403,
  invoice_no_taken: 409,
  invoice_pdf_unavailable: 409,
  invoice_info_required: 409,
  invoice_info_missing: 409,
  internal: 500,
} as const satisfies Record<ErrorCode, number>;

/** 5xx answers that report a third party's failure (the message names it) rather than one of ours. */
const REMOTE_FAILURES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "mcp_sync_unauthorized",
  "mcp_sync_server_error",
  "mcp_sync_network_error",
]);

function zodDetails(err: ZodError, locale: Locale, prefix: string[] = []): FieldError[] {
  return err.issues.map((i) => ({
    path: [...prefix, ...i.path.map(String)].join("."),
    message: translateValidation(i.message, locale),
  }));
}

/**
 * The console API's error mapper. 4xx messages pass through in the caller's language; 5xx are replaced by a
 * generic message carrying the request id and logged in full.
 */
export function consoleErrorHandler(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  const locale = req.locale;
  let appErr: AppError;
  let details: FieldError[] | undefined;
  const fe = err as FastifyError & { validation?: unknown; validationContext?: string };
  if (err instanceof AppError) {
    appErr = err;
    // A detail's message is a validation key, an error code (the field that caused it) or plain text.
    details = err.details?.map((d) => ({
      path: d.path,
      message:
        d.message in ERROR_MESSAGES
          ? errorMessage(d.message as ErrorCode, locale, err.params)
          : translateValidation(d.message, locale),
    }));
  } else if (err instanceof ZodError) {
    appErr = new AppError("validation_failed");
    details = zodDetails(err, locale);
  } else if (fe.validation && Array.isArray(fe.validation)) {
    // fastify-type-provider-zod puts zod issues in `validation`
    appErr = new AppError("validation_failed");
    const issues = fe.validation as {
      instancePath?: string;
      message?: string;
      params?: { issue?: { path?: unknown[]; message?: string } };
    }[];
    details = issues.map((v) => {
      const issue = v.params?.issue;
      const path = issue?.path
        ? issue.path.map(String).join(".")
        : (v.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".");
      return { path, message: translateValidation(issue?.message ?? v.message ?? "invalid_type", locale) };
    });
  } else if (fe.statusCode === 415 || fe.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    appErr = new AppError("bad_request", { params: { reason: "unsupported content type" } });
  } else if (fe.statusCode === 413) {
    appErr = new AppError("bad_request", { params: { reason: "body too large" } });
  } else if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    appErr = new AppError("bad_request", { params: { reason: fe.message } });
  } else {
    req.log.error({ err }, "unhandled error");
    appErr = new AppError("internal", { params: { requestId: req.id } });
  }
  const status = STATUS[appErr.code];
  // A user's MCP server that failed, refused credentials or sits at an address the outbound guard refuses is
  // the user's to fix, not a fault of this server: a warning with its reason, no stack.
  if (REMOTE_FAILURES.has(appErr.code)) {
    req.log.warn({ code: appErr.code, reason: appErr.params.reason }, "remote server failed");
  } else if (status >= 500 && appErr.code !== "internal") req.log.error({ err }, "server error");
  else if (status >= 400) req.log.warn({ code: appErr.code }, "request failed");
  if (appErr.headers) reply.headers(appErr.headers);
  return reply.status(status).send({
    error: {
      code: appErr.code,
      message: errorMessage(appErr.code, locale, { requestId: req.id, ...appErr.params }),
      ...(details?.length ? { details } : {}),
      requestId: req.id,
    },
  });
}
