import path from "node:path";
import { fileURLToPath } from "node:url";

/** A small documentation tree (both locales) for the simulator's docs answers and `$web_search`. */
export const FIXTURE_DOCS = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/docs");
