/**
 * Where generated files (bill exports today) are kept. A small seam: local disk under DATA_DIR now; the files
 * issue adds an S3 implementation behind the same three calls. Keys are relative paths built by our code
 * ("exports/<org>/<id>.xlsx"), never user input.
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

export interface FileStorage {
  /** Moves a finished local file into the store under `key`; returns its size. */
  put(key: string, localPath: string): Promise<number>;
  open(key: string): Promise<Readable>;
  /** A scratch path for producing a file before `put`. */
  scratchPath(name: string): Promise<string>;
}

export function localFileStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return p;
  };
  return {
    async put(key, localPath) {
      const target = resolve(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(localPath, target);
      return (await fs.stat(target)).size;
    },
    async open(key) {
      const p = resolve(key);
      await fs.access(p);
      return createReadStream(p);
    },
    async scratchPath(name) {
      const dir = resolve("tmp");
      await fs.mkdir(dir, { recursive: true });
      return path.join(dir, name);
    },
  };
}
