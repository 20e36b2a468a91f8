import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const stylesDir = path.join(path.dirname(require.resolve("@mantine/core/styles.css")), "styles");
const read = (name: string) => fs.readFileSync(path.join(import.meta.dirname, name), "utf8");
const imported = (css: string) =>
  [...css.matchAll(/@import "@mantine\/core\/styles\/([\w-]+)\.css";/g)].map((m) => m[1]);

describe("Mantine styles split", () => {
  it("puts every Mantine component's styles in exactly one of the public and app files", () => {
    const publicSet = imported(read("mantine-public.css"));
    const appSet = imported(read("mantine-app.css"));
    const all = fs
      .readdirSync(stylesDir)
      .filter((f) => f.endsWith(".css") && !f.endsWith(".layer.css"))
      .map((f) => f.replace(/\.css$/, ""));
    expect([...publicSet, ...appSet].sort()).toEqual(all.sort());
  });

  it("keeps Mantine's own order in each file, so a component overrides the ones it builds on", () => {
    // With Text.css after Anchor.css, Text's `color` and `text-decoration: none` won and links looked like text.
    const bundle = fs.readFileSync(require.resolve("@mantine/core/styles.css"), "utf8");
    const position = (name: string) => {
      const cls = /\.(m_[0-9a-f]+)/.exec(fs.readFileSync(path.join(stylesDir, `${name}.css`), "utf8"))?.[1];
      return cls ? bundle.indexOf(cls) : -1;
    };
    for (const file of ["mantine-public.css", "mantine-app.css"]) {
      const names = imported(read(file)).filter((n) => position(n!) >= 0) as string[];
      expect(
        [...names].sort((a, b) => position(a) - position(b)),
        file,
      ).toEqual(names);
    }
  });

  it("loads the base styles first on every page", () => {
    expect(imported(read("mantine-public.css")).slice(0, 3)).toEqual(["baseline", "default-css-variables", "global"]);
  });
});
