/**
 * Vite plugin of the docs site: serves the page map as `virtual:docs/page-map`, and writes the build-time files
 * next to the client assets (per-locale search index, sitemap.xml, robots.txt, social cards). In dev the same
 * files are answered by a middleware so search works with HMR.
 */
import path from "node:path";
import type { Plugin, ViteDevServer } from "vite";
import { SEARCH_INDEX_PATH } from "../page-map.ts";
import { buildPageMap, buildSearchIndex, CONTENT_DIR, listRoutes } from "./content.ts";
import { LOCALES } from "./contracts.ts";
import { extraFiles } from "./extra-files.ts";

const VIRTUAL = "virtual:docs/page-map";
const RESOLVED = `\0${VIRTUAL}`;
const CONTENT = "virtual:docs/content";
const RESOLVED_CONTENT = `\0${CONTENT}`;

/**
 * A module of MDX pages (`keys` are their paths from the app root). Prerendering imports them all up front, so
 * every page renders in one pass and its HTML holds the whole body (readable without JavaScript); the browser gets
 * one lazy chunk per page. The blog's pages are served the same way.
 */
export function mdxContentModule(keys: string[], ssr: boolean): string {
  if (ssr) {
    return [
      ...keys.map((k, i) => `import * as m${i} from ${JSON.stringify(k)};`),
      `export const loaded = {${keys.map((k, i) => `${JSON.stringify(k)}: m${i}`).join(", ")}};`,
      "export const loaders = {};",
    ].join("\n");
  }
  return [
    "export const loaded = {};",
    `export const loaders = {${keys.map((k) => `${JSON.stringify(k)}: () => import(${JSON.stringify(k)})`).join(", ")}};`,
  ].join("\n");
}

/** Every generated file: public path → contents. */
export async function generatedFiles(opts: { socialCards: boolean }): Promise<Map<string, string | Buffer>> {
  const map = buildPageMap();
  const files = new Map<string, string | Buffer>();
  for (const locale of LOCALES) {
    files.set(SEARCH_INDEX_PATH(locale), JSON.stringify(buildSearchIndex(locale, map[locale])));
  }
  for (const [p, body] of await extraFiles(map, opts)) files.set(p, body);
  return files;
}

export function docsPlugin(): Plugin {
  let isSsrBuild = false;
  let command: "build" | "serve" = "serve";
  return {
    name: "moonport-docs",
    configResolved(config) {
      isSsrBuild = Boolean(config.build.ssr);
      command = config.command;
    },
    resolveId(id) {
      if (id === CONTENT) return RESOLVED_CONTENT;
      return id === VIRTUAL ? RESOLVED : undefined;
    },
    load(id, options) {
      if (id === RESOLVED_CONTENT) {
        this.addWatchFile(CONTENT_DIR);
        const keys = LOCALES.flatMap((l) => listRoutes(l).map((r) => `/content/docs/${l}/${r}.mdx`));
        return mdxContentModule(keys, Boolean(options?.ssr));
      }
      if (id !== RESOLVED) return undefined;
      this.addWatchFile(CONTENT_DIR);
      return `export default ${JSON.stringify(buildPageMap())};`;
    },
    configureServer(server: ViteDevServer) {
      // Front matter or _meta edits change the page map: reload it.
      server.watcher.add(CONTENT_DIR);
      const invalidate = (file: string) => {
        if (!file.startsWith(CONTENT_DIR)) return;
        for (const id of [RESOLVED, RESOLVED_CONTENT]) {
          const mod = server.moduleGraph.getModuleById(id);
          if (mod) server.moduleGraph.invalidateModule(mod);
        }
      };
      server.watcher.on("change", invalidate);
      server.watcher.on("add", invalidate);
      server.watcher.on("unlink", invalidate);
      server.middlewares.use(async (req, res, next) => {
        const url = (req.url ?? "").split("?")[0] ?? "";
        if (!/^\/(docs-search\/|og\/docs\/|sitemap\.xml$|robots\.txt$)/.test(url)) return next();
        const files = await generatedFiles({ socialCards: url.startsWith("/og/") });
        const body = files.get(decodeURIComponent(url));
        if (body === undefined) return next();
        res.setHeader("content-type", contentType(url));
        res.end(body);
      });
    },
    async generateBundle() {
      if (command !== "build" || isSsrBuild) return;
      for (const [p, source] of await generatedFiles({ socialCards: true })) {
        this.emitFile({ type: "asset", fileName: p.slice(1), source });
      }
    },
  };
}

function contentType(url: string) {
  const ext = path.extname(url);
  return (
    { ".json": "application/json", ".xml": "application/xml", ".txt": "text/plain", ".png": "image/png" }[ext] ??
    "application/octet-stream"
  );
}
