/**
 * Reads a feedback submission (multipart: text fields and up to three `image` files). Images are small (≤ 5 MB
 * each, ≤ 3), so they are kept in memory; each is recognised by its signature, never by the name or the declared
 * type, and anything else is refused before a byte is stored.
 */
import { SUPPORT_LIMITS, vmsg } from "@moonport/contracts";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../lib/app-error.ts";

export interface FeedbackImage {
  contentType: string;
  data: Buffer;
}

const MAX_FIELDS = 8;
const MAX_FIELD_BYTES = 16 * 1024;

/** PNG, JPEG, GIF and WebP by their first bytes. */
function imageType(head: Buffer): string | undefined {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (head.subarray(0, 6).toString("latin1") === "GIF87a" || head.subarray(0, 6).toString("latin1") === "GIF89a") {
    return "image/gif";
  }
  if (head.subarray(0, 4).toString("latin1") === "RIFF" && head.subarray(8, 12).toString("latin1") === "WEBP") {
    return "image/webp";
  }
  return undefined;
}

const imagesError = (message: string) => new AppError("validation_failed", { details: [{ path: "images", message }] });

export async function receiveFeedback(
  req: FastifyRequest,
): Promise<{ fields: Record<string, string>; images: FeedbackImage[] }> {
  if (!req.isMultipart()) throw new AppError("bad_request", { params: { reason: "expected multipart/form-data" } });
  const fields: Record<string, string> = {};
  const images: FeedbackImage[] = [];
  const maxMb = `${SUPPORT_LIMITS.feedbackImageBytes / 1024 / 1024} MB`;
  try {
    const parts = req.parts({
      limits: {
        fileSize: SUPPORT_LIMITS.feedbackImageBytes + 1,
        files: SUPPORT_LIMITS.feedbackImages + 1,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_FIELDS + SUPPORT_LIMITS.feedbackImages + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === "field") {
        if (typeof part.value === "string") fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== "image") {
        part.file.resume();
        continue;
      }
      const data = await part.toBuffer();
      if (data.length > SUPPORT_LIMITS.feedbackImageBytes) throw imagesError(vmsg("image_too_large", { max: maxMb }));
      if (data.length === 0) continue;
      const contentType = imageType(data);
      if (!contentType) throw imagesError(vmsg("image_type"));
      images.push({ contentType, data });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw imagesError(vmsg("image_too_large", { max: maxMb }));
    if (code === "FST_FILES_LIMIT") throw imagesError(vmsg("images_count", { max: SUPPORT_LIMITS.feedbackImages }));
    if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") {
      throw new AppError("bad_request", { params: { reason: "too many multipart parts" } });
    }
    throw new AppError("bad_request", { params: { reason: "malformed multipart body" } });
  }
  if (images.length > SUPPORT_LIMITS.feedbackImages) {
    throw imagesError(vmsg("images_count", { max: SUPPORT_LIMITS.feedbackImages }));
  }
  return { fields, images };
}
