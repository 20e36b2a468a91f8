import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { FilesConfig } from "../../../env.ts";
import type { FileStore } from "./file-store.ts";

type S3Config = Extract<FilesConfig["store"], { kind: "s3" }>;

/** An S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), shared by every instance. */
export function createS3Store(cfg: S3Config, tmpDir: string = os.tmpdir()): FileStore & { client: S3Client } {
  const client = new S3Client({
    region: cfg.region,
    endpoint: cfg.endpoint,
    forcePathStyle: cfg.forcePathStyle,
    credentials:
      cfg.accessKeyId && cfg.secretAccessKey
        ? { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey }
        : undefined,
    // Checksums on every request (the SDK's default since 2025) are not understood by every S3-compatible server.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Key = (key: string) => `${cfg.prefix}${key}`;
  const missing = (err: unknown) =>
    err instanceof NoSuchKey || (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404);

  async function open(key: string): Promise<Readable | undefined> {
    try {
      const out = await client.send(new GetObjectCommand({ Bucket: cfg.bucket, Key: Key(key) }));
      return out.Body as Readable;
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  }

  return {
    kind: "s3",
    client,
    async putFile(key, sourcePath, bytes) {
      // A stream with a known length goes up in one PUT (the size is capped at 100 MB, far below S3's 5 GB).
      await client.send(
        new PutObjectCommand({
          Bucket: cfg.bucket,
          Key: Key(key),
          Body: fs.createReadStream(sourcePath),
          ContentLength: bytes,
        }),
      );
    },
    async putText(key, text) {
      await client.send(
        new PutObjectCommand({
          Bucket: cfg.bucket,
          Key: Key(key),
          Body: text,
          ContentType: "text/plain; charset=utf-8",
        }),
      );
    },
    open,
    async withLocalCopy(key, fn) {
      const body = await open(key);
      if (!body) throw new Error(`file store object missing: ${key}`);
      await fsp.mkdir(tmpDir, { recursive: true });
      const dir = await fsp.mkdtemp(path.join(tmpDir, "s3-"));
      const p = path.join(dir, "object");
      try {
        await pipeline(body, fs.createWriteStream(p));
        return await fn(p);
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: cfg.bucket, Key: Key(key) }));
    },
  };
}
