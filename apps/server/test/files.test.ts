/**
 * Files API end to end on a real port: the official `openai` SDK (`client.files.*`) and plain fetch against
 * /v1/files with real fixtures of every supported type (apps/server/test/fixtures/files, made with LibreOffice
 * and Python, see its README), text extraction in worker threads, and hostile inputs refused cleanly while
 * /healthz keeps answering.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FILE_LIMITS } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, multipartBody, type TestApp } from "./helpers.ts";
import { healthBound, pollHealth } from "./support/health-poller.ts";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "files");
const fixture = (name: string) => path.join(FIXTURES, name);

let t: TestApp;
let base: string;
let port: number;
let key: string;
let orgId: string;
let client: OpenAI;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}/v1`;
  const account = await seedAccount(t.ctx, { edition: "global", cash: "10", tierOverride: 5 });
  key = account.key;
  orgId = account.orgId;
  client = new OpenAI({ apiKey: key, baseURL: base, maxRetries: 0 });
});

afterAll(async () => {
  await t.close();
});

async function fileRows() {
  return t.ctx.db.select().from(schema.files).where(eq(schema.files.orgId, orgId));
}

/** Every file in the store directory and every temporary upload, to prove a refusal left nothing behind. */
function storedFiles(): string[] {
  const dirs = [path.join(t.config.dataDir, "files"), t.config.files.tmpDir];
  return dirs.flatMap((d) =>
    fs.existsSync(d)
      ? fs
          .readdirSync(d, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => path.join(e.parentPath, e.name))
      : [],
  );
}

async function waitProcessed(id: string) {
  for (let i = 0; i < 300; i++) {
    const f = await client.files.retrieve(id);
    if (f.status !== ("processing" as string)) return f;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`file ${id} still processing`);
}

const CASES: [string, string][] = [
  ["policy.pdf", "Hotel costs are reimbursed up to 150 dollars per night"],
  ["policy.docx", "aurora observatory badge must be returned"],
  ["budget.xlsx", "Q3\tSouth\t2475"],
  ["slides.pptx", "The lunar rover ships in the third week of March."],
  ["policy.epub", "economy class for flights shorter than six hours"],
  ["policy.html", "Hotel costs are reimbursed up to 150 dollars per night in large cities."],
  ["notes.md", "Dark mode follows the system setting."],
  ["budget.csv", "Q2,North,1850"],
  ["config.json", '"owner":"Ada Lovelace"'],
  ["fib.py", "Return the n-th Fibonacci number"],
  ["receipt.png", "Invoice total 4280 USD"],
  ["notice-zh.png", "会议在三楼举行"],
];

describe("files through the openai SDK", () => {
  it("uploads every fixture type, extracts its text, lists, retrieves and deletes", async () => {
    const ids: string[] = [];
    for (const [name, expected] of CASES) {
      const created = await client.files.create({
        file: fs.createReadStream(fixture(name)),
        purpose: "file-extract" as never,
      });
      expect(created).toMatchObject({
        object: "file",
        filename: name,
        purpose: "file-extract",
        bytes: fs.statSync(fixture(name)).size,
      });
      expect(Object.keys(created).sort()).toEqual(
        ["bytes", "created_at", "filename", "id", "object", "purpose", "status", "status_details"].sort(),
      );
      // Code written for the original API reads the content right after the upload: the request waits.
      const content = await (await client.files.content(created.id)).text();
      expect(content, name).toContain(expected);
      const done = await client.files.retrieve(created.id);
      expect(done.status, name).toBe("ok");
      expect(done.status_details).toBe("");
      ids.push(created.id);
    }
    const list = await client.files.list();
    expect(list.data.map((f) => f.id).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const del = await client.files.delete(id);
      expect(del).toEqual({ id, object: "file", deleted: true });
    }
    expect(await fileRows()).toHaveLength(0);
    expect(storedFiles()).toEqual([]);
  }, 180_000);

  it("answers a question from the file's text placed in the system message (simulator quotes the passage)", async () => {
    const file = await client.files.create({
      file: fs.createReadStream(fixture("policy.docx")),
      purpose: "file-extract" as never,
    });
    const text = await (await client.files.content(file.id)).text();
    const completion = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      messages: [
        { role: "system", content: text },
        { role: "user", content: "How much are hotel costs reimbursed per night?" },
      ],
    });
    expect(completion.choices[0]!.message.content).toContain(
      "Hotel costs are reimbursed up to 150 dollars per night in large cities.",
    );
    await client.files.delete(file.id);
  }, 60_000);

  it("accepts image, video and batch purposes for matching files only", async () => {
    const img = await client.files.create({
      file: fs.createReadStream(fixture("receipt.png")),
      purpose: "image" as never,
    });
    expect(img.status).toBe("ok");
    const notImage = client.files.create({ file: fs.createReadStream(fixture("notes.md")), purpose: "image" as never });
    await expect(notImage).rejects.toMatchObject({ status: 400 });
    const batch = await client.files.create({
      file: await toFile(Buffer.from('{"custom_id":"1","body":{}}\n{"custom_id":"2","body":{}}\n'), "in.jsonl"),
      purpose: "batch",
    });
    expect((await waitProcessed(batch.id)).status).toBe("ok");
    const badBatch = await client.files.create({
      file: await toFile(Buffer.from('{"a":1}\nnot json\n'), "bad.jsonl"),
      purpose: "batch",
    });
    const bad = await waitProcessed(badBatch.id);
    expect(bad).toMatchObject({ status: "error", status_details: "line 2 is not valid JSON" });
    for (const f of [img, batch, badBatch]) await client.files.delete(f.id);
  }, 60_000);
});

interface GatewayAnswer {
  status: number;
  body: { error?: { type: string; message: string } } & Record<string, unknown>;
}

async function upload(fields: Record<string, string>, file?: { name: string; data: Buffer }): Promise<GatewayAnswer> {
  const { body, contentType } = multipartBody(fields, file);
  const res = await fetch(`${base}/files`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": contentType },
    body,
  });
  return { status: res.status, body: (await res.json()) as GatewayAnswer["body"] };
}

function expectRefused(a: GatewayAnswer, message: string) {
  expect(a.status).toBe(400);
  expect(a.body).toEqual({ error: { type: "invalid_request_error", message } });
}

describe("hostile and refused uploads (plain fetch)", () => {
  it("refuses zero bytes, a wrong purpose, a missing file and a missing key; nothing is stored", async () => {
    expectRefused(
      await upload({ purpose: "file-extract" }, { name: "empty.txt", data: Buffer.alloc(0) }),
      "File size is zero, please confirm and re-upload the file",
    );
    expectRefused(
      await upload({ purpose: "fine-tune" }, { name: "a.txt", data: Buffer.from("hello") }),
      "Invalid purpose: only 'file-extract', 'image', 'video' and 'batch' accepted",
    );
    expectRefused(
      await upload({}, { name: "a.txt", data: Buffer.from("hello") }),
      "Invalid purpose: only 'file-extract', 'image', 'video' and 'batch' accepted",
    );
    expectRefused(await upload({ purpose: "file-extract" }), "Invalid request: the multipart field 'file' is missing");
    const noKey = await fetch(`${base}/files`, { method: "POST", body: "x" });
    expect(noKey.status).toBe(401);
    expect(await fileRows()).toHaveLength(0);
    expect(storedFiles()).toEqual([]);
  });

  it("refuses 100 MB + 1 byte while streaming (SDK and fetch) and accepts nothing of it", async () => {
    const big = Buffer.alloc(FILE_LIMITS.maxFileBytes + 1, 0x61);
    const viaSdk = client.files.create({ file: await toFile(big, "big.txt"), purpose: "file-extract" as never });
    await expect(viaSdk).rejects.toMatchObject({
      status: 400,
      error: {
        type: "invalid_request_error",
        message: "File size is too large, max file size is 100MB, please confirm and re-upload the file",
      },
    });
    // Without a Content-Length the limit is enforced on the stream itself.
    const { body, contentType } = multipartBody({ purpose: "file-extract" }, { name: "big.txt", data: big });
    const chunked = await fetch(`${base}/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": contentType },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < body.length; i += 1 << 20) c.enqueue(body.subarray(i, i + (1 << 20)));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit).catch((err: Error) => err);
    // The server answers and closes as soon as the limit is passed; the client may see the answer or the reset.
    if (!(chunked instanceof Error)) expect(chunked.status).toBe(400);
    expect(await fileRows()).toHaveLength(0);
    expect(storedFiles()).toEqual([]);
  }, 120_000);

  it("ends malformed PDFs and zip bombs in status error with a reason while /healthz keeps answering", async () => {
    const health = pollHealth(port);
    const names = ["malformed.pdf", "bomb.docx", "bomb.xlsx", "receipt.png"];
    const created = await Promise.all(
      names.map((n) =>
        client.files.create({ file: fs.createReadStream(fixture(n)), purpose: "file-extract" as never }),
      ),
    );
    const done = await Promise.all(created.map((f) => waitProcessed(f.id)));
    const latencies = await health.stop();
    // Read the failed file's content, then delete all four whatever the assertions below say: rows left behind
    // would fail the quota tests that follow for a reason of their own.
    const res = await fetch(`${base}/files/${created[0]!.id}/content`, { headers: { authorization: `Bearer ${key}` } });
    const content = { status: res.status, body: await res.json() };
    for (const f of created) await client.files.delete(f.id);
    expect(done[0]).toMatchObject({
      status: "error",
      status_details: expect.stringContaining("the PDF cannot be read"),
    });
    expect(done[1]).toMatchObject({ status: "error", status_details: expect.stringContaining("compression bomb") });
    expect(done[2]).toMatchObject({ status: "error", status_details: expect.stringContaining("compression bomb") });
    expect(done[3]!.status).toBe("ok");
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const bound = healthBound();
    console.log(
      `/healthz during hostile extraction: n=${latencies.length} median=${median.toFixed(1)} ms max=${sorted.at(-1)!.toFixed(1)} ms bound=${bound} ms`,
    );
    expect(latencies.length).toBeGreaterThan(10);
    expect(median).toBeLessThan(20);
    expect(sorted.at(-1)!).toBeLessThan(bound);

    // Content of a failed file: the §3 row "Failed to extract file: {error}".
    expect(content.status).toBe(500);
    expect(content.body).toEqual({
      error: { type: "server_error", message: `Failed to extract file: ${done[0]!.status_details}` },
    });
  }, 180_000);

  it("refuses the 1,001st file and an upload past 10 GB (quota simulated with rows), storing nothing", async () => {
    const now = new Date();
    const rows = Array.from({ length: FILE_LIMITS.maxFiles }, (_, i) => ({
      id: newId("file"),
      orgId,
      filename: `f${i}.txt`,
      bytes: 1,
      purpose: "file-extract" as const,
      status: "ok" as const,
      blobKey: `${orgId}/missing-${i}`,
      createdAt: now,
    }));
    await t.ctx.db.insert(schema.files).values(rows);
    expectRefused(
      await upload({ purpose: "file-extract" }, { name: "a.txt", data: Buffer.from("one more") }),
      "The number of files you have uploaded exceeded the max file count 1000, please delete previous uploaded files",
    );
    expect(await fileRows()).toHaveLength(FILE_LIMITS.maxFiles);
    await t.ctx.db.delete(schema.files).where(eq(schema.files.orgId, orgId));

    await t.ctx.db.insert(schema.files).values({ ...rows[0]!, bytes: FILE_LIMITS.maxBytes - 4 });
    expectRefused(
      await upload({ purpose: "file-extract" }, { name: "a.txt", data: Buffer.from("five!") }),
      "The total size of files you have uploaded exceeded the max total size 10GB, please delete previous uploaded files",
    );
    // Exactly at the limit is allowed.
    const ok = await upload({ purpose: "file-extract" }, { name: "a.txt", data: Buffer.from("four") });
    expect(ok.status).toBe(200);
    expect(storedFiles().filter((f) => /file_\w+$/.test(f))).toHaveLength(1);
    await t.ctx.db.delete(schema.files).where(eq(schema.files.orgId, orgId));
  }, 60_000);

  it("refuses an upload for a project archived on another instance before its key cache heard of it", async () => {
    const other = await seedAccount(t.ctx, { edition: "global" });
    const otherClient = new OpenAI({ apiKey: other.key, baseURL: base, maxRetries: 0 });
    // Warms this instance's key cache, then archives behind its back (no key event reaches it).
    expect((await otherClient.files.list()).data).toEqual([]);
    await t.ctx.db
      .update(schema.projects)
      .set({ status: "archived", archivedAt: new Date() })
      .where(eq(schema.projects.id, other.projectId));
    const before = storedFiles();
    await expect(
      otherClient.files.create({
        file: await toFile(Buffer.from("late"), "late.txt"),
        purpose: "file-extract" as never,
      }),
    ).rejects.toMatchObject({
      status: 403,
      error: {
        type: "exceeded_current_quota_error",
        message: `Your account ${other.orgId}<${other.keyId}> is not active, current state: project_archived, the project of this key is archived`,
      },
    });
    expect(await t.ctx.db.select().from(schema.files).where(eq(schema.files.orgId, other.orgId))).toEqual([]);
    expect(storedFiles()).toEqual(before);
  });

  it("hides other organizations' files (404 like a missing one)", async () => {
    const other = await seedAccount(t.ctx, { edition: "global" });
    const otherClient = new OpenAI({ apiKey: other.key, baseURL: base, maxRetries: 0 });
    const mine = await client.files.create({
      file: await toFile(Buffer.from("secret plan"), "plan.txt"),
      purpose: "file-extract" as never,
    });
    for (const call of [
      () => otherClient.files.retrieve(mine.id),
      () => otherClient.files.delete(mine.id),
      () => otherClient.files.content(mine.id),
    ]) {
      await expect(call()).rejects.toMatchObject({
        status: 404,
        error: { type: "resource_not_found_error", message: `Not found the file ${mine.id} or Permission denied` },
      });
    }
    expect((await otherClient.files.list()).data).toEqual([]);
    await client.files.delete(mine.id);
  });
});
