/**
 * The console's Files routes: upload (multipart, session + CSRF), list with search, paging and the organization's
 * usage, extracted text, deletion rules, localized refusals that store nothing, and extraction that survives a
 * restart (the job row outlives the process).
 */
import fs from "node:fs";
import path from "node:path";
import { FILE_LIMITS } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addOrgMember, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { waitFor } from "./support/wait.ts";

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t);
});
afterAll(() => t.close());

const text = (s: string) => Buffer.from(s);
const rowsOf = (orgId: string) => t.ctx.db.select().from(schema.files).where(eq(schema.files.orgId, orgId));
function blobs(): string[] {
  const dir = path.join(t.config.dataDir, "files");
  const tmp = t.config.files.tmpDir;
  return [dir, tmp].flatMap((d) =>
    fs.existsSync(d)
      ? fs
          .readdirSync(d, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => e.name)
      : [],
  );
}

describe("console files", () => {
  it("uploads, lists with usage, searches, pages, shows the text and deletes", async () => {
    const c = admin.client;
    const base = `/api/orgs/${admin.orgId}/files`;
    const handbook = text("# Handbook\nVacation is 25 days a year.\n");
    const up = await c.upload(base, { purpose: "file-extract" }, { name: "handbook.md", data: handbook });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({
      object: "file",
      filename: "handbook.md",
      bytes: handbook.length,
      status: "processing",
    });
    const id = up.body.id as string;
    await waitFor("extraction", async () => (await c.get(`${base}/${id}`)).body.status === "ok", {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    const content = await c.get(`${base}/${id}/content`);
    expect(content.status).toBe(200);
    expect(content.headers["content-type"]).toMatch(/^text\/plain/);
    expect(content.raw.body).toContain("Vacation is 25 days a year.");

    await c.upload(
      base,
      { purpose: "file-extract", projectId: admin.defaultProjectId },
      { name: "notes.txt", data: text("some notes") },
    );
    const list = await c.get(`${base}?page=1&pageSize=1`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      total: 2,
      page: 1,
      pageSize: 1,
      usage: { files: 2, maxFiles: FILE_LIMITS.maxFiles, bytes: handbook.length + 10, maxBytes: FILE_LIMITS.maxBytes },
    });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({
      filename: "notes.txt",
      project_id: admin.defaultProjectId,
      uploaded_by: admin.username,
      can_delete: true,
    });
    const found = await c.get(`${base}?q=HANDBOOK`);
    expect(found.body.items.map((f: { id: string }) => f.id)).toEqual([id]);
    expect((await c.get(`${base}?q=${id}`)).body.total).toBe(1);
    expect((await c.get(`${base}?q=%25`)).body.total).toBe(0);

    const del = await c.delete(`${base}/${id}`);
    expect(del.body).toEqual({ id, object: "file", deleted: true });
    expect((await c.get(`${base}/${id}`)).status).toBe(404);
  }, 60_000);

  it("refuses bad uploads in the caller's language and stores nothing", async () => {
    const user = await signUp(t);
    const c = user.client;
    const base = `/api/orgs/${user.orgId}/files`;
    c.locale = "zh-CN";
    const empty = await c.upload(base, { purpose: "file-extract" }, { name: "e.txt", data: Buffer.alloc(0) });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: "file_empty", message: "文件为空（0 字节）。" });
    c.locale = "en-US";
    const purpose = await c.upload(base, { purpose: "fine-tune" }, { name: "a.txt", data: text("x") });
    expect(purpose.body.error).toMatchObject({
      code: "file_purpose_invalid",
      message: "Unknown purpose. Use one of: file-extract, image, video, batch.",
    });
    const missing = await c.upload(base, { purpose: "file-extract" });
    expect(missing.body.error.code).toBe("file_missing");
    const big = await c.upload(
      base,
      { purpose: "file-extract" },
      { name: "big.txt", data: Buffer.alloc(FILE_LIMITS.maxFileBytes + 1, 0x62) },
    );
    expect(big.status).toBe(413);
    expect(big.body.error.message).toBe("The file is larger than 100 MB. Upload a smaller file.");
    const notImage = await c.upload(base, { purpose: "image" }, { name: "a.png", data: text("not a png") });
    expect(notImage.body.error.code).toBe("file_type_mismatch");
    const foreignProject = await c.upload(
      base,
      { purpose: "file-extract", projectId: admin.defaultProjectId },
      { name: "a.txt", data: text("x") },
    );
    expect(foreignProject.status).toBe(404);
    // Without the CSRF header the upload is refused before its body is read.
    const noCsrf = await t.app.inject({
      method: "POST",
      url: base,
      headers: {
        cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        "content-type": "multipart/form-data; boundary=x",
      },
      payload: "--x--",
    });
    expect(noCsrf.statusCode).toBe(403);
    await rowsOf(user.orgId).then((r) => expect(r).toEqual([]));
    expect(blobs().filter((b) => b.endsWith(".upload"))).toEqual([]);

    const rows = Array.from({ length: FILE_LIMITS.maxFiles }, (_, i) => ({
      id: newId("file"),
      orgId: user.orgId,
      filename: `f${i}.txt`,
      bytes: 1,
      purpose: "file-extract" as const,
      status: "ok" as const,
      blobKey: `${user.orgId}/none-${i}`,
    }));
    await t.ctx.db.insert(schema.files).values(rows);
    const count = await c.upload(base, { purpose: "file-extract" }, { name: "a.txt", data: text("x") });
    expect(count.status).toBe(409);
    expect(count.body.error.message).toBe(
      "The organization already has 1,000 files. Delete files you no longer need first.",
    );
    expect(await rowsOf(user.orgId)).toHaveLength(FILE_LIMITS.maxFiles);
  }, 60_000);

  it("refuses an upload into an archived project like every other write to it, storing nothing", async () => {
    const user = await signUp(t);
    const c = user.client;
    const project = await c.post(`/api/orgs/${user.orgId}/projects`, { name: "done" });
    const archive = await c.post(`/api/orgs/${user.orgId}/projects/${project.body.id}/archive`, {
      confirmName: "done",
    });
    expect(archive.status).toBe(200);
    const base = `/api/orgs/${user.orgId}/files`;
    const fields = { purpose: "file-extract", projectId: project.body.id };
    const en = await c.upload(base, fields, { name: "a.txt", data: text("late") });
    expect(en.status).toBe(409);
    expect(en.body.error).toMatchObject({
      code: "project_archived",
      message: "This project is archived and read-only.",
    });
    c.locale = "zh-CN";
    const zh = await c.upload(base, fields, { name: "a.txt", data: text("late") });
    expect(zh.status).toBe(409);
    expect(zh.body.error.message).toBe("该项目已归档，只读不可修改。");
    expect(await rowsOf(user.orgId)).toEqual([]);
    expect(fs.existsSync(path.join(t.config.dataDir, "files", user.orgId))).toBe(false);
    expect(blobs().filter((b) => b.endsWith(".upload"))).toEqual([]);
  });

  it("lets members read and upload but delete only their own files; admins delete any", async () => {
    const member = await signUp(t);
    await addOrgMember(t, admin.orgId, member, "member");
    const base = `/api/orgs/${admin.orgId}/files`;
    const byAdmin = await admin.client.upload(
      base,
      { purpose: "file-extract" },
      { name: "admin.txt", data: text("admin") },
    );
    const byMember = await member.client.upload(
      base,
      { purpose: "file-extract" },
      { name: "member.txt", data: text("member") },
    );
    expect(byMember.status).toBe(201);
    const seen = await member.client.get(`${base}?q=.txt`);
    const flags = Object.fromEntries(
      seen.body.items.map((f: { filename: string; can_delete: boolean }) => [f.filename, f.can_delete]),
    );
    expect(flags).toMatchObject({ "admin.txt": false, "member.txt": true });
    expect((await member.client.delete(`${base}/${byAdmin.body.id}`)).status).toBe(403);
    expect((await member.client.delete(`${base}/${byMember.body.id}`)).status).toBe(200);
    expect((await admin.client.delete(`${base}/${byAdmin.body.id}`)).status).toBe(200);
  }, 60_000);
});

describe("extraction across a restart", () => {
  it("resumes an extraction whose job was left behind by a stopped instance", async () => {
    const first = await createTestApp();
    const user = await signUp(first);
    // Stop the workers before the job can run: the upload's job row is all that is left.
    await first.ctx.files.close();
    const up = await user.client.upload(
      `/api/orgs/${user.orgId}/files`,
      { purpose: "file-extract" },
      { name: "r.md", data: text("Resumed after restart.") },
    );
    expect(up.status).toBe(201);
    await waitFor(
      "the job to be released",
      async () => {
        const [job] = await first.ctx.db.select().from(schema.jobs).where(eq(schema.jobs.name, "files.extract"));
        return !!job && job.lockedBy === null;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const [row] = await first.ctx.db.select().from(schema.files).where(eq(schema.files.id, up.body.id));
    expect(row!.status).toBe("processing");

    // A new instance on the same database and data directory picks the job up.
    const second = await createTestApp({ DATA_DIR: first.config.dataDir }, { database: first.ctx.database });
    try {
      await waitFor(
        "the resumed extraction",
        async () => {
          await second.ctx.jobs.runDue();
          const [r] = await second.ctx.db.select().from(schema.files).where(eq(schema.files.id, up.body.id));
          return r!.status === "ok";
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
    } finally {
      await second.close();
      await first.close();
    }
  }, 60_000);
});
