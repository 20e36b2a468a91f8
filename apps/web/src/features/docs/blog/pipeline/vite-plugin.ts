/**
 * Vite plugin of the blog: `virtual:blog/posts` (each locale's posts), `virtual:blog/content` (the MDX modules,
 * served like the docs' pages) and, in the client build, each locale's RSS feed.
 */
import fs from "node:fs";
import path from "node:path";
import type { Plugin, ViteDevServer } from "vite";
import { LOCALES, SITE_TOKENS } from "../../pipeline/contracts.ts";
import { mdxContentModule } from "../../pipeline/vite-plugin.ts";
import { BLOG_FEED_PATH, blogModuleKey } from "../posts.ts";
import { BLOG_DIR, buildBlogPosts, rssXml } from "./content.ts";

const POSTS = "virtual:blog/posts";
const CONTENT = "virtual:blog/content";

/** build/client/<locale>/blog/rss.xml → its text. */
function blogFeeds(): Map<string, string> {
  const posts = buildBlogPosts();
  const files = new Map<string, string>();
  for (const locale of LOCALES) {
    const strings = JSON.parse(
      fs.readFileSync(path.resolve(BLOG_DIR, `../../src/i18n/locales/${locale}/docs.json`), "utf8"),
    ) as { blog: { title: string; description: string } };
    const channel = { title: `${SITE_TOKENS.brand} ${strings.blog.title}`, description: strings.blog.description };
    files.set(`${locale}${BLOG_FEED_PATH}`, rssXml(locale, posts[locale], channel));
  }
  return files;
}

export function blogPlugin(): Plugin {
  let isSsrBuild = false;
  let command: "build" | "serve" = "serve";
  return {
    name: "moonport-blog",
    configResolved(config) {
      isSsrBuild = Boolean(config.build.ssr);
      command = config.command;
    },
    resolveId(id) {
      return id === POSTS || id === CONTENT ? `\0${id}` : undefined;
    },
    load(id, options) {
      if (id === `\0${POSTS}`) {
        this.addWatchFile(BLOG_DIR);
        return `export default ${JSON.stringify(buildBlogPosts())};`;
      }
      if (id !== `\0${CONTENT}`) return undefined;
      this.addWatchFile(BLOG_DIR);
      const posts = buildBlogPosts();
      const keys = LOCALES.flatMap((l) => posts[l].map((p) => blogModuleKey(l, p.slug)));
      return mdxContentModule(keys, Boolean(options?.ssr));
    },
    configureServer(server: ViteDevServer) {
      server.watcher.add(BLOG_DIR);
      server.middlewares.use((req, res, next) => {
        if ((req.url ?? "").split("?")[0] !== BLOG_FEED_PATH) return next();
        const locale = /locale=en-US/.test(String(req.headers.cookie)) ? "en-US" : "zh-CN";
        res.setHeader("content-type", "application/xml");
        res.end(blogFeeds().get(`${locale}${BLOG_FEED_PATH}`));
      });
    },
    generateBundle() {
      if (command !== "build" || isSsrBuild) return;
      for (const [fileName, source] of blogFeeds()) this.emitFile({ type: "asset", fileName, source });
    },
  };
}
