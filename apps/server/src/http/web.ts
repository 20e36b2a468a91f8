/**
 * Serves the built web app (apps/web/build/client).
 *
 * Public pages are prerendered once per locale under a locale prefix (build/client/zh-CN/docs/x/index.html,
 * build/client/en-US/docs/x/index.html). A request for the unprefixed URL (/docs/x) gets the file of the request's
 * locale (cookie `locale`, then Accept-Language, then zh-CN), so the HTML a crawler or a browser without
 * JavaScript receives is already in the right language. Prefixed URLs (/en-US/docs/x) switch the locale cookie
 * and redirect to the unprefixed page, which makes them usable as shareable language links.
 *
 * Client-only routes (console, sign-in, playground) get the SPA fallback page; assets are served as files.
 */
import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_S, LOCALES, type Locale, parseLocale } from "@moonport/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../env.ts";
import { AppError, consoleErrorHandler } from "./errors.ts";
import type { App } from "./route.ts";

/** URL path (no trailing slash, "/" for home) → the prerendered file of each locale, relative to the root. */
export type LocalizedPages = Map<string, Partial<Record<Locale, string>>>;

/** Finds every prerendered page under build/client/<locale>/ (index.html → its folder's URL, x.html → /x). */
export function indexLocalizedPages(root: string): LocalizedPages {
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

function localePrefix(url: string): Locale | undefined {
  return parseLocale(url.split("/")[1]);
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

export async function registerWeb(app: App, config: Config, root: string) {
  if (!fs.existsSync(root)) {
    app.log.warn({ root }, "web build not found; run `npm run build` (serving API only)");
    return;
  }
  const pages = indexLocalizedPages(root);
  const fallback = ["__spa-fallback.html", "index.html"].find((f) => fs.existsSync(path.join(root, f)));

  // Requests whose page file this module picked; every other request may not fetch HTML straight from disk.
  const pageRequests = new WeakSet<FastifyRequest>();
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    redirect: false,
    // HTML goes through the page logic below (locale choice, fallback), never straight from disk.
    allowedPath: (pathName, _root, req) =>
      pageRequests.has(req) || (!pathName.endsWith(".html") && !localePrefix(pathName)),
    maxAge: config.nodeEnv === "production" ? "1h" : 0,
    setHeaders: (res, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`))
        res.header("cache-control", "public, max-age=31536000, immutable");
    },
  });

  const sendPage = (req: FastifyRequest, reply: FastifyReply, file: string) => {
    pageRequests.add(req);
    return reply
      .header("cache-control", "no-cache")
      .header("vary", "Cookie, Accept-Language")
      .type("text/html; charset=utf-8")
      .sendFile(file, { cacheControl: false });
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
      return reply.status(400).type("text/plain").send("Bad request");
    }
    const prefixed = localePrefix(url);
    if (prefixed) {
      ensureLocaleCookie(req, reply, prefixed);
      const rest = url.slice(prefixed.length + 1) || "/";
      return reply.redirect(`${encodeURI(rest)}${query ? `?${query}` : ""}`, 302);
    }
    const key = url.length > 1 ? url.replace(/\/+$/, "") || "/" : "/";
    const page = pages.get(key);
    if (page) {
      const file = page[req.locale] ?? Object.values(page)[0]!;
      ensureLocaleCookie(req, reply, req.locale);
      return sendPage(req, reply, file);
    }
    if (path.extname(url) && !url.endsWith(".html")) {
      return reply.status(404).type("text/plain").send("Not found");
    }
    if (!fallback) return reply.status(404).type("text/plain").send("Not found");
    ensureLocaleCookie(req, reply, req.locale);
    return sendPage(req, reply, fallback);
  });
}
