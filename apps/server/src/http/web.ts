/**
 * Serves the built web app (apps/web/build/client).
 *
 * Public pages are prerendered once per locale under a locale prefix (build/client/zh-CN/docs/x/index.html,
 * build/client/en-US/docs/x/index.html). A request for the unprefixed URL (/docs/x) gets the file of the request's
 * locale (cookie `locale`, then Accept-Language, then zh-CN), so the HTML a crawler or a browser without
 * JavaScript receives is already in the right language. Prefixed URLs (/en-US/docs/x) switch the locale cookie
 * and redirect to the unprefixed page, which makes them usable as shareable language links.
 *
 * Client-only routes (console, sign-in, playground) get the SPA fallback page; the web build lists their paths from
 * its route table (build/app-routes.json, written by apps/web/react-router.config.ts). Assets are served as files.
 * An unknown path gets the prerendered `404` page of its nearest folder (e.g. /docs/404), else the site's own
 * (SITE_ERROR_PAGES), with status 404; a browser asking for a malformed address gets the site's `400` page.
 *
 * Prerendered HTML, sitemap.xml and robots.txt carry the SITE_TOKENS of @moonport/contracts where absolute
 * addresses belong (canonical links, social cards, API base URL in code samples); they are replaced here with the
 * configured site and API addresses, or the request's own origin, and the edition's analytics tags are added to
 * every page. One build therefore serves any deployment.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import fastifyStatic from "@fastify/static";
import {
  type Edition,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE_S,
  LOCALES,
  type Locale,
  parseLocale,
  resolveEdition,
  SITE_ERROR_PAGES,
  SITE_TOKENS,
  type SiteTokenValues,
} from "@moonport/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../env.ts";
import { AppError } from "../lib/app-error.ts";
import { sendErrorPage, wantsHtml, webErrorHandler } from "./error-page.ts";
import { consoleErrorHandler } from "./errors.ts";
import { requestLocale } from "./locale.ts";
import type { App } from "./route.ts";
import { applySecurityHeaders, pageContentSecurityPolicy } from "./security-headers.ts";

/** URL path (no trailing slash, "/" for home) → the prerendered file of each locale, relative to the root. */
type LocalizedPages = Map<string, Partial<Record<Locale, string>>>;

/** Finds every prerendered page under build/client/<locale>/ (index.html → its folder's URL, x.html → /x). */
function indexLocalizedPages(root: string): LocalizedPages {
  const pages: LocalizedPages = new Map();
  for (const locale of LOCALES) {
    const base = path.join(root, locale);
    if (!fs.existsSync(base)) continue;
    for (const rel of walkHtml(base)) {
      const parts = rel.split(path.sep);
      const last = parts.pop()!;
      if (last !== "index.html") parts.push(last.replace(/\.html$/, ""));
      const url = `/${parts.join("/")}`;
      const entry = pages.get(url) ?? {};
      entry[locale] = path.join(locale, rel);
      pages.set(url, entry);
    }
  }
  return pages;
}

function walkHtml(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? path.join(prefix, entry.name) : entry.name;
    if (entry.isDirectory()) out.push(...walkHtml(path.join(dir, entry.name), rel));
    else if (entry.name.endsWith(".html")) out.push(rel);
  }
  return out;
}

/**
 * Whether a decoded path is one of the client-only routes, given their patterns from the web build's route table
 * ("/console/organization/:tab?", "/invite/:token"). No patterns (a build without the list): every path is.
 */
function appRouteMatcher(patterns: string[] | undefined): (decodedPath: string) => boolean {
  if (!patterns) return () => true;
  const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const res = patterns.map((p) => {
    const body = p
      .split("/")
      .filter(Boolean)
      .map((seg) => {
        if (seg === "*") return "(?:/.*)?";
        if (seg.startsWith(":")) return seg.endsWith("?") ? "(?:/[^/]+)?" : "/[^/]+";
        return `/${escapeRe(seg)}`;
      })
      .join("");
    return new RegExp(`^${body || "/"}/?$`);
  });
  return (decodedPath) => res.some((re) => re.test(decodedPath));
}

function readAppRoutes(root: string): string[] | undefined {
  const file = path.join(root, "..", "app-routes.json");
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, "utf8")) as string[];
}

function localePrefix(url: string): Locale | undefined {
  return parseLocale(url.split("/")[1]);
}

/**
 * A redirect target that cannot leave the site: "//evil.com" (or "/\\evil.com", which browsers read the same way)
 * in a Location header is another host. Runs of slashes and backslashes collapse to one slash and each segment is
 * percent-encoded again, so a decoded "?", "#" or control character stays part of the path.
 */
export function sameSitePath(decodedPath: string): string {
  const segments = decodedPath.split(/[\\/]+/).filter(Boolean);
  return `/${segments.map((s) => encodeURIComponent(s)).join("/")}${/[\\/]$/.test(decodedPath) && segments.length ? "/" : ""}`;
}

/** The browser decides the UI language from the same cookie, so it always gets one with the first page. */
function ensureLocaleCookie(req: FastifyRequest, reply: FastifyReply, locale: Locale) {
  if (parseLocale(req.cookies[LOCALE_COOKIE]) === locale) return;
  reply.setCookie(LOCALE_COOKIE, locale, {
    path: "/",
    maxAge: LOCALE_COOKIE_MAX_AGE_S,
    sameSite: "lax",
    httpOnly: false,
  });
}

/** Files outside HTML that carry site tokens; they too are answered here rather than by the static handler. */
const TOKENIZED_FILES = new Set(["/sitemap.xml", "/robots.txt", "/docs-search/en-US.json", "/docs-search/zh-CN.json"]);
const TOKENIZED_TYPES: Record<string, string> = {
  ".xml": "application/xml; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

const HOST_RE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Characters that could leave an attribute, a JSON string or a script are percent-encoded. */
function safeUrl(url: string): string {
  return url.replace(/\/+$/, "").replace(/["'<>\\`\s]/g, (c) => encodeURIComponent(c));
}

/** What the tokens stand for on this request: configured addresses, else this request's origin. */
function siteTokenValues(config: Config, req: FastifyRequest): SiteTokenValues {
  const host = req.headers.host && HOST_RE.test(req.headers.host) ? req.headers.host : "localhost";
  const origin = `${req.protocol}://${host}`;
  const siteCn = safeUrl(config.sites.cn ?? origin);
  const siteGlobal = safeUrl(config.sites.global ?? origin);
  return {
    siteCn,
    siteGlobal,
    apiCn: safeUrl(config.apiBaseUrls.cn ?? `${siteCn}/v1`),
    apiGlobal: safeUrl(config.apiBaseUrls.global ?? `${siteGlobal}/v1`),
    brand: config.brandName,
    twoHost: String(Boolean(config.sites.cn && config.sites.global)),
    blogUrl: config.blogUrl ? safeUrl(config.blogUrl) : "/blog",
  };
}

const TOKEN_RE = new RegExp(Object.values(SITE_TOKENS).join("|"), "g");
const TOKEN_KEY = Object.fromEntries(Object.entries(SITE_TOKENS).map(([k, v]) => [v, k])) as Record<
  string,
  keyof SiteTokenValues
>;

function replaceSiteTokens(text: string, values: SiteTokenValues): string {
  return text.replace(TOKEN_RE, (t) => values[TOKEN_KEY[t]!]);
}

function analyticsTags(config: Config, edition: Edition): string {
  return config.analytics[edition]
    .map((tag) => {
      if (tag.src) return `<script async src="${safeUrl(tag.src)}"></script>`;
      // Operator-supplied script; only a closing tag inside it could break out of the element.
      if (tag.inline) return `<script>${tag.inline.replace(/<\/script/gi, "<\\/script")}</script>`;
      return "";
    })
    .join("");
}

/** Hosts the edition's analytics load from or report to: the origin of each `src` tag and each `origin` entry. */
function analyticsOrigins(config: Config, edition: Edition): string[] {
  const out = new Set<string>();
  for (const tag of config.analytics[edition]) {
    for (const u of [tag.src, tag.origin]) {
      if (!u) continue;
      try {
        out.add(new URL(u).origin);
      } catch {
        // env.ts checked these are URLs.
      }
    }
  }
  // The global console's bind-card dialog sends card data straight to Stripe (never to us): allow its API origin.
  const stripe = config.payments.stripe;
  if (edition === "global" && stripe) out.add(new URL(stripe.apiUrl ?? "https://api.stripe.com").origin);
  return [...out];
}

/** Pages differ per request (tokens, analytics), so they are compressed as they are sent; they are small. */
function compressFor(req: FastifyRequest, reply: FastifyReply, text: string): string | Buffer {
  const accept = String(req.headers["accept-encoding"] ?? "");
  if (/\bbr\b/.test(accept)) {
    reply.header("content-encoding", "br");
    return zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  }
  if (/\bgzip\b/.test(accept)) {
    reply.header("content-encoding", "gzip");
    return zlib.gzipSync(text);
  }
  return text;
}

/** What app.ts needs from the web pages: a page for a browser whose address Fastify could not even route. */
export interface WebPages {
  sendBadUrlPage?: (req: FastifyRequest, reply: FastifyReply) => FastifyReply;
}

/** The files under build/client/<locale>/ that carry site tokens but are not pages (the blog's feed). */
const LOCALIZED_FILES = new Set(["/blog/rss.xml"]);

export async function registerWeb(app: App, config: Config, root: string): Promise<WebPages> {
  // A page that fails to read (or any other failure outside /api and /v1) shows a page to a browser.
  app.setErrorHandler(webErrorHandler);
  if (!fs.existsSync(root)) {
    app.log.warn({ root }, "web build not found; run `npm run build` (serving API only)");
    app.setNotFoundHandler(async (req, reply) =>
      wantsHtml(req)
        ? sendErrorPage(req, reply, "web_unavailable")
        : consoleErrorHandler(new AppError("route_not_found"), req, reply),
    );
    return {};
  }
  const pages = indexLocalizedPages(root);
  const isAppRoute = appRouteMatcher(readAppRoutes(root));
  const fallback = ["__spa-fallback.html", "index.html"].find((f) => fs.existsSync(path.join(root, f)));

  // Requests whose page file this module picked; every other request may not fetch HTML straight from disk.
  const pageRequests = new WeakSet<FastifyRequest>();
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    redirect: false,
    // The web build writes .br and .gz copies of its assets (apps/web/vite-plugins/precompress.ts).
    preCompressed: true,
    // HTML goes through the page logic below (locale choice, fallback), never straight from disk.
    allowedPath: (pathName, _root, req) =>
      pageRequests.has(req) ||
      (!pathName.endsWith(".html") && !localePrefix(pathName) && !TOKENIZED_FILES.has(pathName)),
    maxAge: config.nodeEnv === "production" ? "1h" : 0,
    setHeaders: (res, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`))
        res.header("cache-control", "public, max-age=31536000, immutable");
    },
  });

  // Built files never change while the server runs; outside production they are re-read so a rebuild shows up.
  const cache = new Map<string, string>();
  const readText = (file: string) => {
    let text = cache.get(file);
    if (text === undefined) {
      text = fs.readFileSync(path.join(root, file), "utf8");
      if (config.nodeEnv === "production") cache.set(file, text);
    }
    return text;
  };

  const sendPage = (req: FastifyRequest, reply: FastifyReply, file: string, locale: Locale, status = 200) => {
    pageRequests.add(req);
    const edition = resolveEdition({ host: req.headers.host, locale, hosts: config.sites });
    const html = replaceSiteTokens(readText(file), siteTokenValues(config, req)).replace(
      "</head>",
      `${analyticsTags(config, edition)}</head>`,
    );
    // The policy follows the page as sent: its inline scripts (site tokens and analytics filled in) by hash.
    reply
      .header(
        "content-security-policy",
        pageContentSecurityPolicy({
          html,
          extraOrigins: analyticsOrigins(config, edition),
          // Mirrors the docs' check (window.location.href.includes("platformdebug")).
          debugConsole: req.url.includes("platformdebug"),
        }),
      )
      .status(status)
      .header("cache-control", "no-cache")
      .header("vary", "Cookie, Accept-Language, Accept-Encoding")
      .type("text/html; charset=utf-8");
    return reply.send(compressFor(req, reply, html));
  };

  /** The prerendered `404` page of the nearest folder (/docs/a/b → /docs/a/404, then /docs/404), if any. */
  const folderNotFoundPage = (url: string) => {
    const parts = url.split("/").filter(Boolean);
    for (let n = parts.length - 1; n >= 1; n--) {
      const page = pages.get(`/${parts.slice(0, n).join("/")}/404`);
      if (page) return page;
    }
    return undefined;
  };

  /** A prerendered page in the request's locale (else the one it has), with the locale cookie. */
  const sendLocalized = (
    req: FastifyRequest,
    reply: FastifyReply,
    page: Partial<Record<Locale, string>>,
    status?: number,
  ) => {
    const locale = page[req.locale] ? req.locale : (Object.keys(page)[0] as Locale);
    ensureLocaleCookie(req, reply, req.locale);
    return sendPage(req, reply, page[locale]!, locale, status);
  };

  /** Error pages answer with their status even when asked for by name (/404, /docs/404). */
  const statusOf = (key: string) =>
    key === SITE_ERROR_PAGES.badUrl ? 400 : key === SITE_ERROR_PAGES.notFound || key.endsWith("/404") ? 404 : 200;

  const badUrlPage = pages.get(SITE_ERROR_PAGES.badUrl);
  const sendBadUrl = (req: FastifyRequest, reply: FastifyReply) => {
    if (badUrlPage && wantsHtml(req)) return sendLocalized(req, reply, badUrlPage, 400);
    return consoleErrorHandler(new AppError("bad_request", { params: { reason: "malformed URL" } }), req, reply);
  };

  app.setNotFoundHandler(async (req, reply) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      return consoleErrorHandler(new AppError("route_not_found"), req, reply);
    }
    const [rawPath = "/", query] = req.url.split("?", 2);
    let url: string;
    try {
      url = decodeURIComponent(rawPath);
    } catch {
      return sendBadUrl(req, reply);
    }
    const prefixed = localePrefix(url);
    if (prefixed) {
      ensureLocaleCookie(req, reply, prefixed);
      return reply.redirect(`${sameSitePath(url.slice(prefixed.length + 1))}${query ? `?${query}` : ""}`, 302);
    }
    if (TOKENIZED_FILES.has(url) && fs.existsSync(path.join(root, url))) {
      return reply
        .header("cache-control", "no-cache")
        .type(TOKENIZED_TYPES[path.extname(url)] ?? "text/plain; charset=utf-8")
        .send(replaceSiteTokens(readText(url), siteTokenValues(config, req)));
    }
    if (LOCALIZED_FILES.has(url)) {
      const file = path.join(req.locale, url);
      if (fs.existsSync(path.join(root, file))) {
        return reply
          .header("cache-control", "no-cache")
          .header("vary", "Cookie, Accept-Language")
          .type(TOKENIZED_TYPES[path.extname(url)] ?? "text/plain; charset=utf-8")
          .send(replaceSiteTokens(readText(file), siteTokenValues(config, req)));
      }
    }
    const key = url.length > 1 ? url.replace(/\/+$/, "") || "/" : "/";
    const page = pages.get(key);
    if (page) return sendLocalized(req, reply, page, statusOf(key));
    if (path.extname(url) && !url.endsWith(".html")) {
      return reply.status(404).type("text/plain").send("Not found");
    }
    const inFolder = folderNotFoundPage(key);
    if (inFolder) return sendLocalized(req, reply, inFolder, 404);
    // Client-only routes (console, sign-in …) are pages of the SPA fallback; anything else does not exist.
    if (fallback && isAppRoute(key)) {
      ensureLocaleCookie(req, reply, req.locale);
      return sendPage(req, reply, fallback, req.locale);
    }
    const missing = pages.get(SITE_ERROR_PAGES.notFound);
    if (missing) return sendLocalized(req, reply, missing, 404);
    return reply.status(404).type("text/plain").send("Not found");
  });

  return {
    // Fastify refuses such an address before any hook runs: no cookies parsed, no security headers yet.
    sendBadUrlPage: (req, reply) => {
      req.cookies ??= app.parseCookie(String(req.headers.cookie ?? ""));
      req.locale = requestLocale(req);
      applySecurityHeaders(req, reply);
      return sendBadUrl(req, reply);
    },
  };
}
