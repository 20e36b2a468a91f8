import { ERROR_PAGE_TEXT, type ErrorCode, errorMessage, type Locale } from "@moonport/contracts";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../lib/app-error.ts";
import { consoleErrorHandler, STATUS } from "./errors.ts";

/**
 * A browser navigating to a page (not a script calling /api or /v1) wants a page, not the JSON envelope. The page
 * is written here, whole, with its styles inline: it must work when the web build is missing or unreadable.
 */
export function wantsHtml(req: FastifyRequest): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.url.startsWith("/api/") || req.url === "/api" || req.url.startsWith("/v1/") || req.url === "/v1") {
    return false;
  }
  return /\btext\/html\b/.test(String(req.headers.accept ?? ""));
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function errorPageHtml(opts: { code: ErrorCode; locale: Locale; requestId: string }): string {
  const { locale } = opts;
  const title = ERROR_PAGE_TEXT.title[locale];
  const message = errorMessage(opts.code, locale, { requestId: opts.requestId });
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--accent:#1c64d6}
@media (prefers-color-scheme:dark){:root{--bg:#1a1b1e;--fg:#e9ecef;--muted:#adb5bd;--accent:#74a8f8}}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--fg);
font:16px/1.6 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif}
main{max-width:32rem;padding:2rem 1.25rem;text-align:center}
h1{font-size:1.5rem;margin:0 0 .75rem}
p{color:var(--muted);margin:0 0 1.5rem;overflow-wrap:anywhere}
a{color:var(--accent);margin:0 .75rem;text-decoration:underline}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<a href="">${escapeHtml(ERROR_PAGE_TEXT.retry[locale])}</a><a href="/">${escapeHtml(ERROR_PAGE_TEXT.home[locale])}</a>
</main>
</body>
</html>
`;
}

export function sendErrorPage(req: FastifyRequest, reply: FastifyReply, code: ErrorCode) {
  return reply
    .status(STATUS[code])
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(errorPageHtml({ code, locale: req.locale, requestId: req.id }));
}

/**
 * Error handler outside /api and /v1 (those have their own): a page for a browser navigation, the console
 * envelope for anything else. Either way the error is logged with the request id the page shows.
 */
export function webErrorHandler(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  if (!wantsHtml(req)) return consoleErrorHandler(err, req, reply);
  const status = (err as FastifyError).statusCode;
  if (err instanceof AppError && STATUS[err.code] < 500) return consoleErrorHandler(err, req, reply);
  if (status && status >= 400 && status < 500) return consoleErrorHandler(err, req, reply);
  req.log.error({ err }, "page failed");
  return sendErrorPage(req, reply, "internal");
}
