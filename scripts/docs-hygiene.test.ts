/**
 * Keeps the documentation a map and the source free of history: ARCHITECTURE.md and bench/README.md stay short
 * enough to read, source files name no issue or session, comments cite only specs the repo carries (docs/), the
 * sections they cite exist, relative links in the docs resolve, and only apps/server/src/env.ts reads process.env.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE_DIRS = ["apps", "packages", "bench", "e2e", "scripts"];
const SOURCE_FILE = /\.(ts|tsx|mts|js|mjs|cjs|sql)$/;

const lineCount = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8").trimEnd().split("\n").length;

/** Tracked and new (not ignored) files, so the check sees a file before it is committed. */
function repoFiles(dirs: string[]): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...dirs], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter(Boolean)
    .filter((f) => fs.existsSync(path.join(ROOT, f)));
}

const SELF = "scripts/docs-hygiene.test.ts";
/** Source files, this one left out: its own examples are what the patterns must catch. */
const sourceFiles = () => repoFiles(SOURCE_DIRS).filter((f) => SOURCE_FILE.test(f) && f !== SELF);

/** Every `file:line: text` of `files` whose line matches `pattern`. */
function offending(files: string[], pattern: RegExp, skipLine?: (line: string) => boolean): string[] {
  const hits: string[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (pattern.test(line) && !skipLine?.(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}

/** Work items and working sessions: history, which belongs in git, not in the code. */
const HISTORY = /\b(issue|session)[ -]#?\d+/i;
/**
 * A spec cited from outside the repo: the shared folder, an absolute machine path, or api-compat / product-spec
 * named without the docs/ copy the repo carries.
 */
const OUTSIDE_SPEC =
  /shared\/(spec|design)\/|\/work\/|(?<!docs\/)\bapi-compat\b|(?<!docs\/)\bproduct[- ]spec\b|(?<![\w./-])spec §/i;

describe("documentation stays a map", () => {
  it("ARCHITECTURE.md has at most 300 lines", () => {
    expect(lineCount("ARCHITECTURE.md")).toBeLessThanOrEqual(300);
  });

  it("bench/README.md has at most 150 lines", () => {
    expect(lineCount("bench/README.md")).toBeLessThanOrEqual(150);
  });

  it("relative links in the Markdown docs point at files that exist", () => {
    const docs = [
      "ARCHITECTURE.md",
      "README.md",
      ...repoFiles(["docs", ...SOURCE_DIRS]).filter((f) => f.endsWith(".md")),
    ];
    const broken: string[] = [];
    for (const file of docs) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        if (!fs.existsSync(path.resolve(ROOT, path.dirname(file), target))) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("source describes what the code is, not how it got here", () => {
  it("names no issue or session", () => {
    expect(offending(sourceFiles(), HISTORY)).toEqual([]);
  });

  it("cites no spec outside the repo", () => {
    expect(offending(sourceFiles(), OUTSIDE_SPEC)).toEqual([]);
  });

  it("cites only sections that docs/api-compat.md and docs/product-spec.md have", () => {
    const sections = (doc: string) =>
      new Set(
        [...fs.readFileSync(path.join(ROOT, "docs", doc), "utf8").matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map(
          (m) => m[1]!,
        ),
      );
    const known = { "api-compat.md": sections("api-compat.md"), "product-spec.md": sections("product-spec.md") };
    const missing: string[] = [];
    for (const file of sourceFiles()) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const m of text.matchAll(/docs\/(api-compat\.md|product-spec\.md) §(\d+(?:\.\d+)?)/g)) {
        const doc = m[1] as keyof typeof known;
        if (!known[doc].has(m[2]!)) missing.push(`${file}: docs/${doc} §${m[2]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("reads process.env only in apps/server/src/env.ts", () => {
    const comment = (line: string) => /^\s*(\*|\/\/|\/\*)/.test(line);
    const files = sourceFiles().filter(
      (f) => f.startsWith("apps/server/src/") && f !== "apps/server/src/env.ts" && !f.includes(".test."),
    );
    expect(offending(files, /\bprocess\.env\b/, comment)).toEqual([]);
  });
});

describe("the patterns", () => {
  it("catch history and outside specs, and let the repo's own references through", () => {
    expect(HISTORY.test("measured in Issue 18")).toBe(true);
    expect(HISTORY.test("(session-22 host)")).toBe(true);
    expect(HISTORY.test("a session cookie of 30 days")).toBe(false);
    expect(OUTSIDE_SPEC.test("(api-compat §3)")).toBe(true);
    expect(OUTSIDE_SPEC.test("see /work/shared/spec/api-compat.md")).toBe(true);
    expect(OUTSIDE_SPEC.test("(spec §9)")).toBe(true);
    expect(OUTSIDE_SPEC.test("(product spec §2)")).toBe(true);
    expect(OUTSIDE_SPEC.test("(docs/api-compat.md §3)")).toBe(false);
    expect(OUTSIDE_SPEC.test("(docs/product-spec.md §9)")).toBe(false);
  });
});
