/**
 * Build code runs inside vite.config.ts, which Vite bundles with every package import left external; Node cannot
 * load the TypeScript source of @moonport/contracts from there, so build code takes runtime values through these
 * relative imports (bundled in) and only types from the package name.
 */
export { LOCALES } from "../../../../../../packages/contracts/src/locale.ts";
export { SITE_TOKENS } from "../../../../../../packages/contracts/src/site-tokens.ts";
