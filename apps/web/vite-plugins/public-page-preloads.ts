/**
 * Makes the prerendered public pages (build/client/<locale>/**.html) paint before any of their JavaScript loads:
 * removes their `<link rel="modulepreload">` tags and starts the hydration script's imports only after the first
 * frame has been painted.
 *
 * Why: those pages are complete HTML and readable before any script runs, but with ~40 preloaded chunks (React,
 * Mantine, i18next) arriving fast, Chromium evaluates them and hydrates before it first paints, so first paint
 * waits for the JavaScript (Lighthouse mobile: first contentful paint ≈ 3 s, performance 79–91). Without the
 * preloads the page paints from HTML and CSS alone (≈ 1 s) and the scripts load through their imports from the
 * inline module script right after. On loopback even that was sometimes too fast: the module script's static
 * imports arrived and ran before the first frame, and Lighthouse's simulation then counted the whole script chain
 * into first and largest contentful paint (2.4 s instead of 0.9 s on the home page, run to run). So the inline
 * script waits for a painted frame (requestAnimationFrame, then a task) and imports the same modules dynamically,
 * in the same order of effects. The SPA fallback page (console, sign-in) keeps its preloads: it shows nothing
 * until its JavaScript runs.
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

/** React Router's hydration script: side-effect imports, route module imports, their registry, the entry. */
const HYDRATION_SCRIPT = /<script type="module" async="">([\s\S]*?)<\/script>/;
const SIDE_EFFECT_IMPORT = /^import "([^"]+)";$/;
const NAMESPACE_IMPORT = /^import \* as (\w+) from "([^"]+)";$/;

/**
 * The hydration script with its static imports turned into dynamic ones started after the first paint (a hidden
 * tab has no frames to wait for and goes on at once). Throws on a script of another shape, so a React Router
 * upgrade that changes it fails the build instead of shipping pages that never hydrate.
 */
export function hydrateAfterFirstPaint(script: string): string {
  const imports: { binding: string | null; url: string }[] = [];
  const rest: string[] = [];
  for (const raw of script.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const side = SIDE_EFFECT_IMPORT.exec(line);
    const named = NAMESPACE_IMPORT.exec(line);
    if (side) imports.push({ binding: null, url: side[1]! });
    else if (named) imports.push({ binding: named[1]!, url: named[2]! });
    else if (/^import\s/.test(line)) throw new Error(`unexpected import in the hydration script: ${line}`);
    else rest.push(line);
  }
  if (!imports.length || !rest.some((l) => l.startsWith("import("))) {
    throw new Error("the hydration script has no module imports or no entry import");
  }
  const bindings = imports.map((i) => i.binding ?? "").join(", ");
  return [
    'await new Promise((r) => document.visibilityState === "hidden" ? r() : requestAnimationFrame(() => setTimeout(r)));',
    `const [${bindings}] = await Promise.all([${imports.map((i) => `import(${JSON.stringify(i.url)})`).join(", ")}]);`,
    ...rest,
  ].join("\n");
}

/** One page's HTML without module preloads, hydrating after its first paint. */
export function withoutModulePreloads(html: string): string {
  const page = html.replace(MODULE_PRELOAD, "");
  const m = HYDRATION_SCRIPT.exec(page);
  if (!m) return page;
  return page.replace(m[0], `<script type="module" async="">${hydrateAfterFirstPaint(m[1]!)}</script>`);
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
