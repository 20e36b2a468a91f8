import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { RiddleAttemptList, RiddleBoard, type RiddleStreamEvent } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

/**
 * Riddles against an upstream model (what a real deployment runs): a real model's terse answer is judged like the
 * simulator's, and a model that fails leaves nothing behind — no history, no used quota, the failure streamed.
 */

let t: TestApp;
let upstream: http.Server;
let tmp: string;
const seen: unknown[] = [];

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { messages: { role: string; content: string }[] };
      seen.push(parsed);
      const prompt = parsed.messages.at(-1)!.content;
      if (prompt.includes("fail")) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "upstream exploded" } }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null, usage?: object) =>
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
      res.write(chunk({ role: "assistant", content: "" }, null));
      res.write(chunk({ content: "Hello" }, null));
      res.write(chunk({ content: "!" }, null));
      res.write(chunk({}, "stop", { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 }));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-riddle-upstreams-"));
  const file = path.join(tmp, "upstreams.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      "moonshot-v1-8k": {
        baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
        apiKeyEnv: "TEST_UPSTREAM_KEY",
        upstreamModel: "real-model",
        connectTimeoutMs: 1000,
        responseTimeoutMs: 5000,
      },
    }),
  );
  t = await createTestApp({ UPSTREAMS_FILE: file, TEST_UPSTREAM_KEY: "upstream-secret" });
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => upstream.close(r));
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function submit(u: Awaited<ReturnType<typeof signUp>>, prompt: string) {
  const res = await u.client.post(`/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/riddles/first-word/attempts`, {
    prompt,
  });
  expect(res.status, res.raw.body).toBe(200);
  return res.raw.body
    .split("\n\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)) as RiddleStreamEvent);
}

describe("riddles on an upstream model", () => {
  it("judges a real model's answer and sends it the riddle's fixed request", async () => {
    const u = await signUp(t);
    const events = await submit(u, "Reply with exactly one word: Hello");
    const verdict = events.find((e) => e.type === "verdict");
    expect(verdict?.type === "verdict" && verdict.attempt.passed).toBe(true);
    expect(verdict?.type === "verdict" && verdict.attempt.answer).toBe("Hello!");
    expect(seen.at(-1)).toMatchObject({
      model: "real-model",
      max_tokens: 2,
      stream: true,
      messages: [{ role: "user", content: "Reply with exactly one word: Hello" }],
    });
  });

  it("a failing model is a console error in the user's language and leaves no attempt and no used quota", async () => {
    const u = await signUp(t);
    const res = await u.client.post(`/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/riddles/first-word/attempts`, {
      prompt: "please fail",
    });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("playground_model_failed");
    u.client.locale = "zh-CN";
    const zh = await u.client.post(`/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/riddles/first-word/attempts`, {
      prompt: "please fail",
    });
    expect(zh.body.error.message).toMatch(/^模型暂时不可用/);
    const history = RiddleAttemptList.parse(
      (await u.client.get(`/api/orgs/${u.orgId}/riddles/first-word/attempts`)).body,
    );
    expect(history.items).toEqual([]);
    const board = RiddleBoard.parse((await u.client.get(`/api/orgs/${u.orgId}/riddles`)).body);
    expect(board.quota.used).toBe(0);
    const rows = await t.ctx.db.select().from(schema.riddleAttempts).where(eq(schema.riddleAttempts.userId, u.userId));
    expect(rows.map((r) => r.status)).toEqual(["failed", "failed"]);
  });
});
