/**
 * Removes the `<link rel="modulepreload">` tags from the prerendered public pages (build/client/<locale>/**.html).
 *
 * Why: those pages are complete HTML and readable before any script runs, but with ~40 preloaded chunks (React,
 * Mantine, i18next) arriving fast, Chromium evaluates them and hydrates before it first paints, so first paint
 * waits for the JavaScript (Lighthouse mobile: first contentful paint ≈ 3 s, performance 79–91). Without the
 * preloads the page paints from HTML and CSS alone (≈ 1 s) and the scripts load through their imports from the
 * inline module script right after. The SPA fallback page (console, sign-in) keeps its preloads: it shows
 * nothing until its JavaScript runs.
 */
import fs from "node:fs";
import path from "node:path";

const MODULE_PRELOAD = /<link rel="modulepreload" href="[^"]*"\/>/g;

function htmlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return htmlFiles(full);
    return entry.name.endsWith(".html") ? [full] : [];
  });
}

/** Strips module preloads from one page's HTML. */
export function withoutModulePreloads(html: string): string {
  return html.replace(MODULE_PRELOAD, "");
}

/** Rewrites every prerendered page below `clientDir/<locale>/`; returns how many files changed. */
export function dropPublicPagePreloads(clientDir: string, locales: readonly string[]): number {
  let changed = 0;
  for (const locale of locales) {
    const dir = path.join(clientDir, locale);
    if (!fs.existsSync(dir)) continue;
    for (const file of htmlFiles(dir)) {
      const html = fs.readFileSync(file, "utf8");
      const next = withoutModulePreloads(html);
      if (next !== html) {
        fs.writeFileSync(file, next);
        changed++;
      }
    }
  }
  return changed;
}
