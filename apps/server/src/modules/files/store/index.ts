import type { FilesConfig } from "../../../env.ts";
import { createDiskStore } from "./disk-store.ts";
import type { FileStore } from "./file-store.ts";
import { createS3Store } from "./s3-store.ts";

export type { FileStore };

export function createFileStore(cfg: FilesConfig): FileStore {
  return cfg.store.kind === "s3" ? createS3Store(cfg.store, cfg.tmpDir) : createDiskStore(cfg.store.dir);
}
