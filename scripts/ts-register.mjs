/**
 * `node --import ./scripts/ts-register.mjs app.ts`: runs the server's TypeScript on Node 20 by transforming each
 * file with esbuild as it loads (scripts/ts-hooks.mjs). tsx does the same with `keepNames`, which wraps every
 * named function expression in `__name(fn, "…")` — an Object.defineProperty per closure created, about 0.3 µs
 * each, on every /v1 request (docs/decisions/0005-esbuild-register-hook.md). A transform without bundling or minifying
 * renames nothing, so names stay as written without it. tsx stays for the dev watcher and tests' helper scripts.
 */
import { register } from "node:module";

// Stack traces point at the TypeScript lines (the transform inlines a source map), as under tsx.
process.setSourceMapsEnabled(true);
register("./ts-hooks.mjs", import.meta.url);
