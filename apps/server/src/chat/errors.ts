/**
 * Gateway errors: exactly the `{"error":{"type","message"}}` bodies, statuses and messages of the API we are
 * wire-compatible with (docs/api-compat.md §3), so the official SDKs raise their usual exception classes.
 * The chat core throws and streams them; the gateway's pipeline throws the 401/403/429 rows.
 */
import type { GatewayErrorBody, GatewayErrorType } from "@moonport/contracts";

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly type: GatewayErrorType,
    message: string,
    /** Extra response headers (Retry-After, x-ratelimit-*). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message.length > MAX_MESSAGE ? clip(message, MAX_MESSAGE) : message);
    this.name = "GatewayError";
  }

  toBody(): GatewayErrorBody {
    return { error: { type: this.type, message: this.message } };
  }
}

/**
 * Client input quoted in a message (a model id, a path, a tool name) is cut to its first `max` characters: a
 * megabyte-long model id must not come back in the 404.
 */
export function clip(input: string, max = 64): string {
  if (input.length <= max) return input;
  let end = max;
  const last = input.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${input.slice(0, end)}…`;
}

/** Longest message a gateway error carries (a last guard; messages quote input through `clip`). */
const MAX_MESSAGE = 1024;

/** What follows the recorded "is not active, current state: <state>" for each state we report. */
const NOT_ACTIVE_ADVICE: Record<string, string> = {
  // The recorded wording (docs/api-compat.md §3).
  account: "you may consider to check your account balance",
  daily_budget_exceeded:
    "the daily budget of this key's project is spent; raise the project budget in the console or try again tomorrow",
  monthly_budget_exceeded:
    "the monthly budget of this key's project is spent; raise the project budget in the console or try again next month",
  project_archived: "the project of this key is archived",
  suspended: "the organization was suspended by the platform operator; contact support",
};

/** Factories for every row of docs/api-compat.md §3 we emit; messages are verbatim. */
export const gatewayErrors = {
  invalidRequest: (details: string) => new GatewayError(400, "invalid_request_error", `Invalid request: ${details}`),
  inputTooLong: () => new GatewayError(400, "invalid_request_error", "Input token length too long"),
  exceededModelTokenLimit: (maxModelLength: number) =>
    new GatewayError(400, "invalid_request_error", `Your request exceeded model token limit : ${maxModelLength}`),
  invalidAuthentication: () => new GatewayError(401, "invalid_authentication_error", "Invalid Authentication"),
  incorrectApiKey: () => new GatewayError(401, "invalid_authentication_error", "Incorrect API key provided"),
  /**
   * 403 for a key whose project cannot spend: the recorded message names the state; the advice after it says
   * what to do (a spent project budget is not an account balance problem).
   */
  accountNotActive: (uid: string, akId: string, state: string) =>
    new GatewayError(
      403,
      "exceeded_current_quota_error",
      `Your account ${uid}<${akId}> is not active, current state: ${state}, ${NOT_ACTIVE_ADVICE[state] ?? NOT_ACTIVE_ADVICE.account}`,
    ),
  apiNotOpen: () => new GatewayError(403, "permission_denied_error", "The API you are accessing is not open"),
  modelNotFound: (model: string) =>
    new GatewayError(404, "resource_not_found_error", `Not found the model ${clip(model)} or Permission denied`),
  notFound: () => new GatewayError(404, "resource_not_found_error", "Not found the model or Permission denied"),
  engineOverloaded: () =>
    new GatewayError(429, "engine_overloaded_error", "The engine is currently overloaded, please try again later"),
  insufficientBalance: () =>
    new GatewayError(
      429,
      "exceeded_current_quota_error",
      "Your account is suspended due to insufficient balance, please recharge your account or check your plan and billing details",
      // A 429 the official SDKs would otherwise retry twice; retrying cannot help until someone recharges.
      { "x-should-retry": "false" },
    ),
  serverError: (message = "Internal server error") => new GatewayError(500, "server_error", message),
  // Rate limits (docs/api-compat.md §3, verbatim including the missing space in the TPD message). uid = organization
  // id, ak-id = key id. `headers` carries Retry-After and the x-ratelimit-* set.
  maxConcurrency: (uid: string, akId: string, limit: number, seconds: number, headers: Record<string, string>) =>
    new GatewayError(
      429,
      "rate_limit_reached_error",
      `Your account ${uid}<${akId}> request reached max concurrency: ${limit}, please try again after ${seconds} seconds`,
      headers,
    ),
  maxRequests: (uid: string, akId: string, rpm: number, seconds: number, headers: Record<string, string>) =>
    new GatewayError(
      429,
      "rate_limit_reached_error",
      `Your account ${uid}<${akId}> request reached max request: ${rpm}, please try again after ${seconds} seconds`,
      headers,
    ),
  tpmLimit: (uid: string, akId: string, current: number, limit: number, headers: Record<string, string>) =>
    new GatewayError(
      429,
      "rate_limit_reached_error",
      `Your account ${uid}<${akId}> request reached TPM rate limit, current:${current}, limit:${limit}`,
      headers,
    ),
  tpdLimit: (uid: string, akId: string, current: number, limit: number, headers: Record<string, string>) =>
    new GatewayError(
      429,
      "rate_limit_reached_error",
      `Your account ${uid}<${akId}> request reached TPD rate limit,current:${current}, limit:${limit}`,
      headers,
    ),
  /** Not in the original table: a path under /v1 that does not exist. */
  routeNotFound: (method: string, path: string) =>
    new GatewayError(404, "resource_not_found_error", `Not found: ${method} ${clip(path)} is not an API route`),
  // Not in the original table either: what Fastify and Node's HTTP parser refuse before a route runs, in the
  // same envelope so SDKs and clients parse every /v1 answer alike.
  badUrl: () =>
    new GatewayError(400, "invalid_request_error", "Invalid request: the URL is not correctly percent-encoded"),
  urlTooLong: () => new GatewayError(414, "invalid_request_error", "Invalid request: the URL is too long"),
  headersTooLarge: () =>
    new GatewayError(431, "invalid_request_error", "Invalid request: the request headers are too large"),
  requestTimeout: () =>
    new GatewayError(408, "invalid_request_error", "Invalid request: the request did not arrive in time"),
  malformedHttp: () => new GatewayError(400, "invalid_request_error", "Invalid request: malformed HTTP request"),
  tooDeep: (maxDepth: number) =>
    new GatewayError(
      400,
      "invalid_request_error",
      `Invalid request: the request body nests JSON more than ${maxDepth} levels deep`,
    ),
  invalidJson: () =>
    new GatewayError(400, "invalid_request_error", "Invalid request: the request body is not valid JSON"),
  emptyBody: () => new GatewayError(400, "invalid_request_error", "Invalid request: the request body is empty"),
  bodyTooLarge: (limitBytes: number) =>
    new GatewayError(
      400,
      "invalid_request_error",
      `Invalid request: the request body is larger than the limit of ${Math.round(limitBytes / 1024 / 1024)} MB`,
    ),
  /** The upstream model service failed or is unreachable (engine errors). */
  upstreamFailed: (detail: string) => new GatewayError(502, "server_error", detail),
  upstreamTimeout: () =>
    new GatewayError(504, "server_error", "The model did not answer in time, please try again later"),
  upstreamRejected: (detail: string) => new GatewayError(400, "invalid_request_error", `Invalid request: ${detail}`),
  // Files API (docs/api-compat.md §3 rows for uploads; §4).
  invalidPurpose: () =>
    new GatewayError(
      400,
      "invalid_request_error",
      "Invalid purpose: only 'file-extract', 'image', 'video' and 'batch' accepted",
    ),
  fileTooLarge: () =>
    new GatewayError(
      400,
      "invalid_request_error",
      "File size is too large, max file size is 100MB, please confirm and re-upload the file",
    ),
  fileEmpty: () =>
    new GatewayError(400, "invalid_request_error", "File size is zero, please confirm and re-upload the file"),
  fileCountExceeded: (max: number) =>
    new GatewayError(
      400,
      "invalid_request_error",
      `The number of files you have uploaded exceeded the max file count ${max}, please delete previous uploaded files`,
    ),
  fileStorageExceeded: () =>
    new GatewayError(
      400,
      "invalid_request_error",
      "The total size of files you have uploaded exceeded the max total size 10GB, please delete previous uploaded files",
    ),
  fileNotFound: (id: string) =>
    new GatewayError(404, "resource_not_found_error", `Not found the file ${clip(id)} or Permission denied`),
  fileExtractFailed: (reason: string) => new GatewayError(500, "server_error", `Failed to extract file: ${reason}`),
};
