import type { GatewayError } from "../../chat/errors.ts";
import { AppError } from "../../lib/app-error.ts";

/** Which rate limit a gateway 429 names (its message is the verbatim docs/api-compat.md §3 text). */
function limitName(message: string): string {
  const m =
    /max concurrency: (\d+)/.exec(message) ??
    /max request: (\d+)/.exec(message) ??
    /(TPM) rate limit.*limit:(\d+)/.exec(message) ??
    /(TPD) rate limit.*limit:(\d+)/.exec(message);
  if (!m) return "RPM";
  if (message.includes("max concurrency")) return `concurrency ${m[1]}`;
  if (message.includes("max request")) return `RPM ${m[1]}`;
  return `${m[1]} ${m[2]}`;
}

/**
 * The gateway's refusals (docs/api-compat.md §3, English by contract) as console errors in the user's language: the
 * playground is a console screen, and its users read the same limits, budgets and balance rules in their words.
 * The original message stays in the reason of what has no translation (an upstream's own words).
 */
export function playgroundError(g: GatewayError): AppError {
  const headers: Record<string, string> = {};
  const retry = g.headers["retry-after"];
  if (retry) headers["retry-after"] = retry;
  if (g.status === 429 && g.type === "exceeded_current_quota_error") {
    return new AppError("playground_insufficient_balance");
  }
  if (g.status === 429 && g.type === "rate_limit_reached_error") {
    return new AppError("playground_rate_limited", {
      params: { limit: limitName(g.message), seconds: Number(retry ?? 1) },
      headers,
    });
  }
  if (g.status === 403 && g.message.includes("project_archived")) return new AppError("project_archived");
  if (g.status === 403 && g.message.includes("daily_budget_exceeded")) {
    return new AppError("playground_daily_budget_exceeded");
  }
  if (g.status === 403 && g.message.includes("monthly_budget_exceeded")) {
    return new AppError("playground_monthly_budget_exceeded");
  }
  if (g.status >= 400 && g.status < 500 && g.status !== 429) {
    return new AppError("playground_request_invalid", { params: { reason: g.message } });
  }
  return new AppError("playground_model_failed", { params: { reason: g.message }, headers });
}
