import type { FileObject } from "@moonport/contracts";
import type { schema } from "@moonport/db";

export type FileRow = typeof schema.files.$inferSelect;

/** docs/api-compat.md §4's FileObject: exactly these fields, `created_at` in Unix seconds. */
export function toFileObject(row: FileRow): FileObject {
  return {
    id: row.id,
    object: "file",
    bytes: row.bytes,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
    filename: row.filename,
    purpose: row.purpose,
    status: row.status,
    status_details: row.statusDetails,
  };
}

export const blobKeyOf = (orgId: string, fileId: string) => `${orgId}/${fileId}`;
export const contentKeyOf = (orgId: string, fileId: string) => `${orgId}/${fileId}.txt`;
