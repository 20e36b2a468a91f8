import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Rules of the web app's source that the linters cannot express: files small enough to read in one sitting, and
 * one request layer (src/lib/api.ts) — the only place that calls fetch or XMLHttpRequest, parses SSE and reads the
 * CSRF cookie, so the header, cookies and error envelope cannot drift between features.
 */
const SRC = path.dirname(fileURLToPath(import.meta.url));
const MAX_LINES = 450;
const REQUEST_LAYER = "lib/api.ts";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const files = sources(SRC).map((p) => ({
  name: path.relative(SRC, p).split(path.sep).join("/"),
  text: readFileSync(p, "utf8"),
}));

/** Code only: comments name these APIs when they explain why the request layer exists. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

describe("web source rules", () => {
  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const long = files
      .map((f) => ({ name: f.name, lines: f.text.split("\n").length - (f.text.endsWith("\n") ? 1 : 0) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.name}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  it("calls fetch, XMLHttpRequest and EventSource and reads the CSRF cookie only in the request layer", () => {
    const outside = files
      .filter((f) => f.name !== REQUEST_LAYER)
      .flatMap((f) =>
        [/(?<!\w)fetch\(/, /\bXMLHttpRequest\b/, /\bEventSource\b/, /mp_csrf/, /eventsource-parser/]
          .filter((re) => re.test(code(f.text)))
          .map((re) => `${f.name}: ${re.source}`),
      );
    expect(outside).toEqual([]);
  });

  it("reads document.cookie only in the request layer and for the locale preference", () => {
    const readers = files.filter((f) => /document\.cookie/.test(code(f.text))).map((f) => f.name);
    expect(readers.sort()).toEqual(["i18n/index.ts", REQUEST_LAYER]);
  });
});
