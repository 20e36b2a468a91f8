/**
 * Where generated files (bill exports today) are kept: local disk under DATA_DIR, or — when uploaded files go to
 * an S3-compatible bucket (FILES_STORE=s3) — the same bucket, so a download served by any instance finds the file
 * another instance's job produced. Keys are relative paths built by our code ("exports/<org>/<id>.xlsx"), never
 * user input.
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

/** The object store's calls this needs (modules/files/store's FileStore has them). */
interface ObjectStore {
  putFile(key: string, sourcePath: string, bytes: number): Promise<void>;
  open(key: string): Promise<Readable | undefined>;
}

/** Files kept in `store`; produced first in a scratch folder under `scratchRoot` on this instance's disk. */
export function objectFileStorage(store: ObjectStore, scratchRoot: string): FileStorage {
  const scratch = localFileStorage(scratchRoot);
  return {
    async put(key, localPath) {
      const size = (await fs.stat(localPath)).size;
      await store.putFile(key, localPath, size);
      await fs.rm(localPath, { force: true });
      return size;
    },
    async open(key) {
      const stream = await store.open(key);
      if (!stream) throw Object.assign(new Error(`no stored file ${key}`), { code: "ENOENT" });
      return stream;
    },
    scratchPath: (name) => scratch.scratchPath(name),
  };
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
