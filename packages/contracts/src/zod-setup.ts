/**
 * Imported first by the contracts modules that build schemas (package.json lists it under sideEffects, so bundlers
 * keep it). In browsers zod must not probe for eval with `new Function`: the pages' Content-Security-Policy
 * forbids eval and Chromium reports even the caught probe as a violation. The server keeps zod's compiled parsers.
 */
import { z } from "zod";

if ("document" in globalThis) z.config({ jitless: true });
