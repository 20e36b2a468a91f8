/**
 * The S3-compatible store: the app with FILES_STORE=s3 against s3rver (an S3 implementation in Node) on a random
 * loopback port. Uploads land in the bucket, extraction reads them back through a temporary copy, the text is
 * stored next to them, and deletion removes both objects.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, expect, it } from "vitest";
import { insertBill, signUp } from "./console-helpers.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, multipartBody, type TestApp } from "./helpers.ts";
import { waitFor } from "./support/wait.ts";

let s3: S3rver;
let endpoint: string;
let t: TestApp;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-s3rver-"));

beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    configureBuckets: [{ name: "moonport-files", configs: [] }],
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    FILES_STORE: "s3",
    S3_ENDPOINT: endpoint,
    S3_BUCKET: "moonport-files",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_PREFIX: "files/",
  });
});

afterAll(async () => {
  await t?.close();
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function keys(): Promise<string[]> {
  const client = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  const out = await client.send(new ListObjectsV2Command({ Bucket: "moonport-files" }));
  client.destroy();
  return (out.Contents ?? []).map((o) => o.Key!).sort();
}

it("stores uploads and extracted text in the bucket and deletes both", async () => {
  const account = await seedAccount(t.ctx);
  const auth = { authorization: `Bearer ${account.key}` };
  const docx = fs.readFileSync(path.join(import.meta.dirname, "fixtures", "files", "policy.docx"));
  const { body, contentType } = multipartBody({ purpose: "file-extract" }, { name: "policy.docx", data: docx });
  const up = await t.app.inject({
    method: "POST",
    url: "/v1/files",
    headers: { ...auth, "content-type": contentType },
    payload: body,
  });
  expect(up.statusCode, up.body).toBe(200);
  const id = up.json().id as string;
  const content = await t.app.inject({ method: "GET", url: `/v1/files/${id}/content`, headers: auth });
  expect(content.statusCode).toBe(200);
  expect(content.body).toContain("aurora observatory badge");
  expect(await keys()).toEqual([`files/${account.orgId}/${id}`, `files/${account.orgId}/${id}.txt`]);
  // No local copy of the object is left behind by the extraction.
  expect(fs.existsSync(path.join(t.config.dataDir, "files"))).toBe(false);
  const del = await t.app.inject({ method: "DELETE", url: `/v1/files/${id}`, headers: auth });
  expect(del.json()).toEqual({ id, object: "file", deleted: true });
  await waitFor("objects removed", async () => (await keys()).length === 0);
}, 60_000);

it("keeps bill exports in the same bucket, so any instance serves the download", async () => {
  const admin = await signUp(t);
  await insertBill(t, {
    orgId: admin.orgId,
    projectId: admin.defaultProjectId,
    apiKeyId: "key_s3",
    consumption: 1_234_000n,
    createdAt: new Date("2026-10-15T04:00:00Z"),
  });
  const created = await admin.client.post(`/api/orgs/${admin.orgId}/bill-exports`, { month: "2026-10", format: "csv" });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await t.ctx.jobs.runDue();
  const stored = (await keys()).filter((k) => k.includes(created.body.id));
  expect(stored).toEqual([`files/exports/${admin.orgId}/${created.body.id}.csv`]);
  const dl = await admin.client.get(`/api/orgs/${admin.orgId}/bill-exports/${created.body.id}/download`);
  expect(dl.status).toBe(200);
  expect(dl.raw.payload).toContain("0.001234");
  // Nothing is left in this instance's scratch folder.
  const scratch = path.join(t.ctx.config.dataDir, "exports", "tmp");
  expect(fs.existsSync(scratch) ? fs.readdirSync(scratch) : []).toEqual([]);
});
