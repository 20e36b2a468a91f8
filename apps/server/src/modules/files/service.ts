import path from "node:path";
import type { Config } from "../../env.ts";
import { createExtractor, type Extractor } from "./extract/pool.ts";
import { createFileStore, type FileStore } from "./store/index.ts";

/** What the files module keeps for the app's lifetime (ctx.files): the blob store and the extraction pool. */
export interface FilesService {
  store: FileStore;
  extractor: Extractor;
  /** Uploads are streamed here first (same disk as DATA_DIR, so the size check never holds a file in memory). */
  tmpDir: string;
  close(): Promise<void>;
}

export function createFilesService(config: Config): FilesService {
  const store = createFileStore(config.files);
  const extractor = createExtractor({
    ...config.files.extract,
    tessDir: path.join(config.dataDir, "tmp", "tessdata"),
  });
  return { store, extractor, tmpDir: config.files.tmpDir, close: () => extractor.close() };
}
