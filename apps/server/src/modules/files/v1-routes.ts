/**
 * `/v1/files` (docs/api-compat.md §4), registered inside the gateway plugin (v1/routes.ts): the key is checked before
 * the upload is read, and every refusal is a §3 envelope. Domain refusals (AppError) become the recorded
 * messages here, so the console routes can share the domain functions and keep their localized messages.
 */
import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { GatewayError, gatewayErrors } from "../../chat/errors.ts";
import type { AppContext } from "../../context.ts";
import type { App } from "../../http/route.ts";
import { AppError } from "../../lib/app-error.ts";
import type { KeyIdentity } from "../../metering/pipeline.ts";
import { createFile, parsePurpose } from "./create-file.ts";
import { deleteFile } from "./delete-file.ts";
import { toFileObject } from "./file-object.ts";
import { getFile } from "./get-file.ts";
import { listOrgFiles } from "./list-files.ts";
import { readFileContent } from "./read-file-content.ts";
import { receiveUpload } from "./receive-upload.ts";

function toGateway(err: unknown, fileId?: string, key?: KeyIdentity): unknown {
  if (!(err instanceof AppError)) return err;
  switch (err.code) {
    // The key's project was archived on another instance and this one has not heard yet: refused like chat.
    case "project_archived":
      return key ? gatewayErrors.accountNotActive(key.orgId, key.keyId, "project_archived") : err;
    case "file_too_large":
      return gatewayErrors.fileTooLarge();
    case "file_empty":
      return gatewayErrors.fileEmpty();
    case "file_purpose_invalid":
      return gatewayErrors.invalidPurpose();
    case "file_count_exceeded":
      return gatewayErrors.fileCountExceeded(Number(err.params.max));
    case "file_storage_exceeded":
      return gatewayErrors.fileStorageExceeded();
    case "file_missing":
      return gatewayErrors.invalidRequest("the multipart field 'file' is missing");
    case "file_type_mismatch":
      return gatewayErrors.invalidRequest(`the file does not match its purpose: ${err.params.reason}`);
    case "file_processing":
      return gatewayErrors.invalidRequest("the file is still being processed, please retry in a few seconds");
    case "file_no_content":
      return gatewayErrors.invalidRequest("only files with purpose 'file-extract' have extracted content");
    case "file_extract_failed":
      return gatewayErrors.fileExtractFailed(String(err.params.reason));
    case "not_found":
      return gatewayErrors.fileNotFound(fileId ?? "");
    case "bad_request":
      return gatewayErrors.invalidRequest(String(err.params.reason));
    default:
      return err;
  }
}

async function asGateway<T>(fn: () => Promise<T>, fileId?: string, key?: KeyIdentity): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toGateway(err, fileId, key);
  }
}

const FileIdParams = z.object({ id: z.string().min(1).max(64) });

export default async function fileV1Routes(
  app: App,
  opts: { ctx: AppContext; keyOf: (req: FastifyRequest) => KeyIdentity },
) {
  const { ctx, keyOf } = opts;
  await app.register(multipart);

  app.post("/files", async (req, reply) => {
    const key = keyOf(req);
    const file = await asGateway(
      async () => {
        const upload = await receiveUpload(req, ctx.files.tmpDir);
        let purpose: ReturnType<typeof parsePurpose>;
        try {
          purpose = parsePurpose(upload.fields.purpose);
        } catch (err) {
          await upload.discard();
          throw err;
        }
        return createFile({
          ctx,
          orgId: key.orgId,
          projectId: key.projectId,
          uploadedBy: null,
          apiKeyId: key.keyId,
          purpose,
          upload,
        });
      },
      undefined,
      key,
    );
    // The client may still be sending a refused upload; answering and closing beats reading it to the end.
    if (!req.raw.complete) reply.header("connection", "close");
    return reply.send(file);
  });

  app.get("/files", async (req) => {
    const key = keyOf(req);
    return { object: "list", data: await listOrgFiles(ctx, key.orgId) };
  });

  app.get("/files/:id", async (req) => {
    const key = keyOf(req);
    const { id } = parseParams(req.params);
    return toFileObject(await asGateway(() => getFile(ctx, key.orgId, id), id));
  });

  app.delete("/files/:id", async (req) => {
    const key = keyOf(req);
    const { id } = parseParams(req.params);
    return asGateway(() => deleteFile({ ctx, orgId: key.orgId, fileId: id }), id);
  });

  app.get("/files/:id/content", async (req, reply) => {
    const key = keyOf(req);
    const { id } = parseParams(req.params);
    const controller = new AbortController();
    reply.raw.once("close", () => controller.abort());
    const body = await asGateway(
      () => readFileContent({ ctx, orgId: key.orgId, fileId: id, signal: controller.signal }),
      id,
    );
    reply.header("content-type", "text/plain; charset=utf-8");
    return reply.send(body);
  });
}

function parseParams(params: unknown): { id: string } {
  const parsed = FileIdParams.safeParse(params);
  if (!parsed.success) throw new GatewayError(400, "invalid_request_error", "Invalid request: bad file id");
  return parsed.data;
}
