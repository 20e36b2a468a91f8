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

function writeCompressed(file: string, data: Buffer) {
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
}

/**
 * Compresses the text files of `dir` that have no .br copy yet. React Router writes its route manifest
 * (`assets/manifest-<hash>.js`, 50+ KB, loaded by every page) during the server build, outside the client bundle
 * this plugin sees, so react-router.config.ts's buildEnd calls this once everything is written.
 */
export function precompressLeftovers(dir: string): number {
  let n = 0;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!COMPRESSIBLE.test(name) || fs.existsSync(`${file}.br`)) continue;
    const data = fs.readFileSync(file);
    if (data.length < MIN_BYTES) continue;
    writeCompressed(file, data);
    n++;
  }
  return n;
}

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
        writeCompressed(file, data);
      }
    },
  };
}
