import type { Readable } from "node:stream";

/**
 * Where uploaded files and their extracted text live. The database holds the keys; the bytes live here, so
 * several instances share them through an S3-compatible bucket (`s3-store.ts`) and one instance can keep them on
 * its own disk (`disk-store.ts`). Keys are `<orgId>/<fileId>` and `<orgId>/<fileId>.txt`.
 */
export interface FileStore {
  readonly kind: "disk" | "s3";
  /** Stores a local file (already size-checked) under `key`; the source file is left for the caller to remove. */
  putFile(key: string, sourcePath: string, bytes: number): Promise<void>;
  putText(key: string, text: string): Promise<void>;
  /** The object's bytes as a stream; `undefined` when it does not exist. */
  open(key: string): Promise<Readable | undefined>;
  /**
   * Calls `fn` with a path to a local copy of the object (the file itself on disk; a temporary download for S3,
   * removed when `fn` ends), for the extraction worker, which reads files by path.
   */
  withLocalCopy<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
  /** Removes the object; a missing one is not an error (deletes are retried). */
  remove(key: string): Promise<void>;
}
