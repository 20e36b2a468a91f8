/**
 * Reads a multipart upload (`file` plus text fields, in any order) without holding the file in memory: the file
 * part streams to a temporary file while its bytes are counted, and the stream fails at the first byte past the
 * limit. Nothing of a refused upload stays behind (the temporary file is removed on every failure).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { FILE_LIMITS } from "@moonport/contracts";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../lib/app-error.ts";

export interface ReceivedUpload {
  tmpPath: string;
  filename: string;
  bytes: number;
  /** The first bytes, to recognise the format by its signature. */
  head: Buffer;
  fields: Record<string, string>;
  /** Removes the temporary file (idempotent). */
  discard(): Promise<void>;
}

const HEAD_BYTES = 64;
const MAX_FIELDS = 8;
const MAX_FIELD_BYTES = 1024;

export const fileTooLarge = () => new AppError("file_too_large", { params: { max: "100 MB" } });

/** Multipart framing around one file and a few short fields stays well under this. */
const ENVELOPE_BYTES = 64 * 1024;

export async function receiveUpload(req: FastifyRequest, tmpDir: string): Promise<ReceivedUpload> {
  // A declared length far over the limit is refused before a byte is read (the client is told to stop).
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > FILE_LIMITS.maxFileBytes + ENVELOPE_BYTES) throw fileTooLarge();
  if (!req.isMultipart()) throw new AppError("file_missing");

  await fsp.mkdir(tmpDir, { recursive: true });
  const tmpPath = path.join(tmpDir, `${randomUUID()}.upload`);
  const discard = () => fsp.rm(tmpPath, { force: true });
  const fields: Record<string, string> = {};
  let file: { filename: string; bytes: number; head: Buffer } | undefined;
  try {
    const parts = req.parts({
      limits: {
        // One byte over the limit is enough to know the file is too large.
        fileSize: FILE_LIMITS.maxFileBytes + 1,
        files: 1,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_FIELDS + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === "field") {
        if (typeof part.value === "string") fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== "file" || file) {
        part.file.resume();
        continue;
      }
      let bytes = 0;
      let head = Buffer.alloc(0);
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
          if (bytes > FILE_LIMITS.maxFileBytes) return done(fileTooLarge());
          done(null, chunk);
        },
      });
      await pipeline(part.file, counter, fs.createWriteStream(tmpPath));
      file = { filename: cleanFilename(part.filename), bytes, head };
    }
  } catch (err) {
    await discard();
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw fileTooLarge();
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") {
      throw new AppError("bad_request", { params: { reason: "too many multipart parts" } });
    }
    throw new AppError("bad_request", { params: { reason: "malformed multipart body" } });
  }
  if (!file) {
    await discard();
    throw new AppError("file_missing");
  }
  if (file.bytes === 0) {
    await discard();
    throw new AppError("file_empty");
  }
  return { tmpPath, ...file, fields, discard };
}

/** The name as the client sent it, without directories or control characters, at most 255 characters. */
function cleanFilename(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (clean || "file").slice(0, 255);
}
