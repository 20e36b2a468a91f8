import { z } from "zod";
import { OrgIdParams, PageQuery, paged } from "./common.ts";

/** docs/api-compat.md §4 / docs/product-spec.md §9: per organization and per file. */
export const FILE_LIMITS = {
  maxFiles: 1000,
  maxBytes: 10 * 1024 ** 3,
  maxFileBytes: 100 * 1024 ** 2,
} as const;

/**
 * `purpose` values of `POST /v1/files` (docs/api-compat.md §4: file-extract, image, video; batch from the OpenAPI
 * enum).
 */
export const FILE_PURPOSES = ["file-extract", "image", "video", "batch"] as const;
export const FilePurpose = z.enum(FILE_PURPOSES);
export type FilePurpose = z.infer<typeof FilePurpose>;

/** `processing` until extraction ends; `ok` or `error` (with `status_details`) afterwards. */
export const FileStatus = z.enum(["processing", "ok", "error"]);
export type FileStatus = z.infer<typeof FileStatus>;

/** The FileObject of docs/api-compat.md §4, byte for byte what `/v1/files` answers (and the console's upload). */
export const FileObject = z.object({
  id: z.string(),
  object: z.literal("file"),
  bytes: z.number().int(),
  created_at: z.number().int(),
  filename: z.string(),
  purpose: FilePurpose,
  status: FileStatus,
  status_details: z.string(),
});
export type FileObject = z.infer<typeof FileObject>;

/** A console row: the FileObject plus who uploaded it for which project and whether the caller may delete it. */
export const ConsoleFile = FileObject.extend({
  project_id: z.string().nullable(),
  project_name: z.string().nullable(),
  uploaded_by: z.string().nullable(),
  can_delete: z.boolean(),
});
export type ConsoleFile = z.infer<typeof ConsoleFile>;

export const FileUsage = z.object({
  files: z.number().int(),
  maxFiles: z.number().int(),
  bytes: z.number().int(),
  maxBytes: z.number().int(),
});
export type FileUsage = z.infer<typeof FileUsage>;

export const ListFilesQuery = PageQuery.extend({
  /** Substring of the file name (any case) or an exact file id. */
  q: z.string().trim().max(200).optional(),
});
export type ListFilesQuery = z.input<typeof ListFilesQuery>;

export const FilePage = paged(ConsoleFile).extend({ usage: FileUsage });
export type FilePage = z.infer<typeof FilePage>;

export const FileParams = OrgIdParams.extend({ fileId: z.string().min(1).max(64) });

/** The multipart fields of a console upload besides `file` (the route validates them after the stream). */
export const UploadFileFields = z.object({
  purpose: FilePurpose.default("file-extract"),
  projectId: z.string().min(1).max(64).optional(),
});

export const DeletedFile = z.object({ id: z.string(), object: z.literal("file"), deleted: z.literal(true) });
export type DeletedFile = z.infer<typeof DeletedFile>;
