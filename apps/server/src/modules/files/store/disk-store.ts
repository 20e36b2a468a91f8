import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { FileStore } from "./file-store.ts";

/** Files under one directory (default `<DATA_DIR>/files`), written to a temporary name and renamed into place. */
export function createDiskStore(dir: string): FileStore {
  const full = (key: string) => {
    // Keys are built by the server from ids, never from client input; still refuse anything that leaves `dir`.
    const p = path.resolve(dir, key);
    if (!p.startsWith(path.resolve(dir) + path.sep)) throw new Error(`file store key outside the store: ${key}`);
    return p;
  };
  async function place(key: string, write: (tmp: string) => Promise<void>) {
    const target = full(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.${Date.now()}.part`;
    try {
      await write(tmp);
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }
  return {
    kind: "disk",
    putFile: (key, sourcePath) => place(key, (tmp) => fsp.copyFile(sourcePath, tmp)),
    putText: (key, text) => place(key, (tmp) => fsp.writeFile(tmp, text, "utf8")),
    async open(key) {
      try {
        const handle = await fsp.open(full(key), "r");
        return handle.createReadStream() as Readable;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw err;
      }
    },
    async withLocalCopy(key, fn) {
      const p = full(key);
      await fsp.access(p, fs.constants.R_OK);
      return fn(p);
    },
    async remove(key) {
      await fsp.rm(full(key), { force: true });
    },
  };
}
