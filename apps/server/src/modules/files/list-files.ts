import { type ConsoleFile, FILE_LIMITS, type FileObject, type FilePage } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, desc, eq, ilike, or, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { fileUsage } from "./create-file.ts";
import { type FileRow, toFileObject } from "./file-object.ts";

/** Deletion: the uploader or an organization admin (modules/files/README.md). */
export function canDeleteFile(access: OrgAccess, file: Pick<FileRow, "uploadedBy">): boolean {
  return access.role === "admin" || (file.uploadedBy !== null && file.uploadedBy === access.userId);
}

/** Every file of the organization, newest first (`GET /v1/files` documents no paging). */
export async function listOrgFiles(ctx: AppContext, orgId: string): Promise<FileObject[]> {
  const rows = await ctx.db
    .select()
    .from(schema.files)
    .where(eq(schema.files.orgId, orgId))
    .orderBy(desc(schema.files.createdAt), desc(schema.files.id));
  return rows.map(toFileObject);
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The console's page: search by name (any case) or exact id, with the organization's usage of the limits. */
export async function listFiles(opts: {
  ctx: AppContext;
  access: OrgAccess;
  q?: string;
  page: number;
  pageSize: number;
}): Promise<FilePage> {
  const { ctx, access, page, pageSize } = opts;
  const orgId = access.org.id;
  const q = opts.q?.trim();
  const where = and(
    eq(schema.files.orgId, orgId),
    q ? or(ilike(schema.files.filename, `%${escapeLike(q)}%`), eq(schema.files.id, q)) : undefined,
  );
  const [rows, [count], usage] = await Promise.all([
    ctx.db
      .select({ file: schema.files, projectName: schema.projects.name, uploader: schema.users.username })
      .from(schema.files)
      .leftJoin(schema.projects, eq(schema.projects.id, schema.files.projectId))
      .leftJoin(schema.users, eq(schema.users.id, schema.files.uploadedBy))
      .where(where)
      .orderBy(desc(schema.files.createdAt), desc(schema.files.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(schema.files).where(where),
    fileUsage(ctx.db, orgId),
  ]);
  const items: ConsoleFile[] = rows.map((r) => ({
    ...toFileObject(r.file),
    project_id: r.file.projectId,
    project_name: r.projectName,
    uploaded_by: r.file.uploadedBy ? (r.uploader ?? null) : null,
    can_delete: canDeleteFile(access, r.file),
  }));
  return {
    items,
    total: count?.n ?? 0,
    page,
    pageSize,
    usage: { files: usage.files, maxFiles: FILE_LIMITS.maxFiles, bytes: usage.bytes, maxBytes: FILE_LIMITS.maxBytes },
  };
}
