/**
 * Console routes of the Files screen. Organization members list, read and upload (for a project they belong to,
 * or for none); deletion is for the uploader or an organization admin (the domain decides: `objectRule`).
 */
import multipart from "@fastify/multipart";
import {
  ConsoleFile,
  DeletedFile,
  FileObject,
  FilePage,
  FileParams,
  ListFilesQuery,
  OrgIdParams,
  UploadFileFields,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { getProjectAccess } from "../../http/org-access.ts";
import { type App, orgAccess } from "../../http/route.ts";
import { AppError } from "../../lib/app-error.ts";
import { createFile } from "./create-file.ts";
import { deleteFile } from "./delete-file.ts";
import { toFileObject } from "./file-object.ts";
import { getFile } from "./get-file.ts";
import { canDeleteFile, listFiles } from "./list-files.ts";
import { readFileContent } from "./read-file-content.ts";
import { receiveUpload } from "./receive-upload.ts";

const UPLOAD_RULE =
  "projectId, when given, must be a project the caller belongs to (else 404) and not archived (else 409)";
const DELETE_RULE = "the uploader or an organization admin; other members 403";

export default async function fileRoutes(app: App, ctx: AppContext) {
  await app.register(multipart);

  app.get(
    "/orgs/:orgId/files",
    {
      config: { access: "orgMember" },
      schema: { params: OrgIdParams, querystring: ListFilesQuery, response: { 200: FilePage } },
    },
    async (req) => listFiles({ ctx, access: orgAccess(req), ...req.query }),
  );

  app.post(
    "/orgs/:orgId/files",
    {
      config: { access: "orgMember", objectRule: UPLOAD_RULE },
      schema: { params: OrgIdParams, response: { 201: FileObject } },
    },
    async (req, reply) => {
      const access = orgAccess(req);
      const upload = await receiveUpload(req, ctx.files.tmpDir);
      let fields: { purpose: FileObject["purpose"]; projectId?: string };
      try {
        const parsed = UploadFileFields.safeParse(upload.fields);
        if (!parsed.success) {
          throw parsed.error.issues.some((i) => i.path[0] === "purpose")
            ? new AppError("file_purpose_invalid")
            : new AppError("not_found");
        }
        fields = parsed.data;
        if (fields.projectId) await getProjectAccess(ctx.db, access, fields.projectId);
      } catch (err) {
        await upload.discard();
        throw err;
      }
      const file = await createFile({
        ctx,
        orgId: access.org.id,
        projectId: fields.projectId ?? null,
        uploadedBy: access.userId,
        apiKeyId: null,
        purpose: fields.purpose,
        upload,
      });
      reply.status(201);
      return file;
    },
  );

  app.get(
    "/orgs/:orgId/files/:fileId",
    {
      config: { access: "orgMember" },
      schema: { params: FileParams, response: { 200: ConsoleFile.omit({ project_name: true, uploaded_by: true }) } },
    },
    async (req) => {
      const access = orgAccess(req);
      const row = await getFile(ctx, access.org.id, req.params.fileId);
      return { ...toFileObject(row), project_id: row.projectId, can_delete: canDeleteFile(access, row) };
    },
  );

  app.get(
    "/orgs/:orgId/files/:fileId/content",
    { config: { access: "orgMember" }, schema: { params: FileParams } },
    async (req, reply) => {
      const controller = new AbortController();
      reply.raw.once("close", () => controller.abort());
      const body = await readFileContent({
        ctx,
        orgId: orgAccess(req).org.id,
        fileId: req.params.fileId,
        // Like /v1: a file still being extracted is waited for, so the playground can read it right after upload.
        signal: controller.signal,
      });
      reply.header("content-type", "text/plain; charset=utf-8");
      return reply.send(body);
    },
  );

  app.delete(
    "/orgs/:orgId/files/:fileId",
    {
      config: { access: "orgMember", objectRule: DELETE_RULE },
      schema: { params: FileParams, response: { 200: DeletedFile } },
    },
    async (req) => {
      const access = orgAccess(req);
      return deleteFile({ ctx, orgId: access.org.id, fileId: req.params.fileId, access });
    },
  );
}
