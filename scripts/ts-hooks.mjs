/**
 * Module loader hooks for scripts/ts-register.mjs: `.ts`/`.mts` files are ES modules transformed by esbuild
 * (types stripped, nothing renamed, an inline source map); everything else loads as Node would load it.
 * Imports name their files with extensions (`./x.ts`) and workspace packages export their `src/*.ts`, so Node's
 * own resolution needs no help.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

const TS = /\.m?ts$/;
// The repository's tsconfig.base.json settings that change emitted code (isolatedModules: type-only imports
// are dropped file by file; ES2022 class fields with define semantics).
const tsconfigRaw = { compilerOptions: { target: "ES2022", useDefineForClassFields: true } };

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !TS.test(url.split("?")[0])) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const { code } = await transform(await readFile(file, "utf8"), {
    loader: "ts",
    format: "esm",
    target: `node${process.versions.node}`,
    sourcemap: "inline",
    sourcefile: file,
    tsconfigRaw,
  });
  return { format: "module", source: code, shortCircuit: true };
}
