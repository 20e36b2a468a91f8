/**
 * Writes a brotli (.br) and gzip (.gz) copy next to every text asset of the client build; the server's static
 * handler sends them to browsers that accept them (@fastify/static `preCompressed`), so no CPU is spent per request.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Plugin } from "vite";

const COMPRESSIBLE = /\.(js|mjs|css|json|svg|map)$/;
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  let outDir = "";
  let ssr = false;
  return {
    name: "moonport-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
      ssr = Boolean(config.build.ssr);
    },
    writeBundle(_options, bundle) {
      if (ssr) return;
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const data = fs.readFileSync(file);
        if (data.length < MIN_BYTES) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
      }
    },
  };
}
