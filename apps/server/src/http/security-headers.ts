/**
 * Security headers of every response (pages, /api, /v1, assets). Pages replace the strict default policy with
 * one built from their own inline scripts (`pageContentSecurityPolicy`, called by web.ts).
 */
import { createHash } from "node:crypto";
import type { App, FastifyReply, FastifyRequest } from "./route.ts";

/** JSON and files need no script, style or frame: the policy of everything that is not a page. */
const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const BASE_HEADERS = {
  "content-security-policy": NON_PAGE_CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
} as const;

/** One year; sent only on TLS so a plain-HTTP quick start never pins browsers to an HTTPS that does not exist. */
const HSTS = "max-age=31536000; includeSubDomains";

/**
 * TLS as the client saw it: the socket itself, or `X-Forwarded-Proto: https` from a proxy when TRUST_PROXY is
 * set (Fastify's `protocol` reads the header only then).
 */
function servedOverTls(req: FastifyRequest): boolean {
  return req.protocol === "https";
}

/** The headers every response carries; also called for answers given before any hook ran (a malformed URL). */
export function applySecurityHeaders(req: FastifyRequest, reply: FastifyReply) {
  reply.headers(BASE_HEADERS);
  if (servedOverTls(req)) reply.header("strict-transport-security", HSTS);
}

export function registerSecurityHeaders(app: App) {
  // onRequest, so error answers (404, 401, 429 …) carry the headers too. A callback hook: an async one costs a
  // promise and a microtask turn on every request, /v1 included.
  app.addHook("onRequest", (req, reply, done) => {
    applySecurityHeaders(req, reply);
    done();
  });
}

const INLINE_SCRIPT_RE = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const hashCache = new Map<string, string>();

/** 'sha256-…' of a script's text exactly as it stands between its tags (what the browser hashes). */
function scriptHash(text: string): string {
  let h = hashCache.get(text);
  if (h === undefined) {
    h = `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
    // Pages repeat the same few scripts; the bound only guards against a build with unbounded variety.
    if (hashCache.size >= 2000) hashCache.clear();
    hashCache.set(text, h);
  }
  return h;
}

/** Hashes of every inline script of a page (site-token values and analytics tags already filled in). */
function inlineScriptHashes(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(INLINE_SCRIPT_RE)) {
    if (/\bsrc\s*=/i.test(m[1] ?? "")) continue;
    out.add(scriptHash(m[2] ?? ""));
  }
  return [...out];
}

/**
 * The policy of one served page: scripts from this origin and the page's own inline scripts by hash (no
 * 'unsafe-inline' for scripts), plus the hosts of the edition's analytics tags. Styles allow 'unsafe-inline':
 * Mantine sets CSS variables in style attributes and injects <style> elements at run time, which hashes cannot
 * cover; a style cannot run code.
 */
export function pageContentSecurityPolicy(opts: {
  html: string;
  extraOrigins: string[];
  debugConsole?: boolean;
}): string {
  const extra = opts.extraOrigins.join(" ");
  const withExtra = (base: string) => (extra ? `${base} ${extra}` : base);
  // The docs' `platformdebug` console (eruda) evaluates what its user types; only a page whose address asks for it
  // allows eval, and injected markup still cannot run (inline scripts stay hash-only).
  const evalSource = opts.debugConsole ? " 'unsafe-eval'" : "";
  return [
    "default-src 'self'",
    withExtra(`script-src 'self'${evalSource} ${inlineScriptHashes(opts.html).join(" ")}`.trimEnd()),
    "style-src 'self' 'unsafe-inline'",
    withExtra("img-src 'self' data: blob:"),
    "font-src 'self' data:",
    withExtra("connect-src 'self'"),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
