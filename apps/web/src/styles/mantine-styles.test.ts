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

  it("loads the base styles first on every page", () => {
    expect(imported(read("mantine-public.css")).slice(0, 3)).toEqual(["baseline", "default-css-variables", "global"]);
  });
});
