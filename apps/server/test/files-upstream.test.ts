/**
 * File Q&A with a real upstream model: the extracted text placed in the system message reaches the upstream
 * byte for byte (the simulator's quoting plays no part when a model is routed upstream).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let upstream: http.Server;
let t: TestApp;
let tmp: string;
const received: { messages: { role: string; content: string }[] }[] = [];

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      received.push(JSON.parse(raw));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "up-1",
          object: "chat.completion",
          created: 1,
          model: "up",
          choices: [{ index: 0, message: { role: "assistant", content: "From upstream." }, finish_reason: "stop" }],
          usage: { prompt_tokens: 50, completion_tokens: 3, total_tokens: 53 },
        }),
      );
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-files-upstream-"));
  const file = path.join(tmp, "upstreams.json");
  const port = (upstream.address() as AddressInfo).port;
  fs.writeFileSync(file, JSON.stringify({ "*": { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "up" } }));
  t = await createTestApp({ UPSTREAMS_FILE: file });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await t?.close();
  await new Promise((r) => upstream.close(r));
  fs.rmSync(tmp, { recursive: true, force: true });
});

it("sends the extracted text to the upstream unchanged", async () => {
  const account = await seedAccount(t.ctx, { edition: "global", cash: "10", tierOverride: 5 });
  const baseURL = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  const client = new OpenAI({ apiKey: account.key, baseURL, maxRetries: 0 });
  const file = await client.files.create({
    file: fs.createReadStream(path.join(import.meta.dirname, "fixtures", "files", "slides.pptx")),
    // The SDK's types know OpenAI's purposes only; the wire value is what matters.
    purpose: "file-extract" as never,
  });
  const content = await (await client.files.content(file.id)).text();
  expect(content).toContain("The lunar rover ships in the third week of March.");
  const completion = await client.chat.completions.create({
    model: "moonshot-v1-8k",
    messages: [
      { role: "system", content },
      { role: "user", content: "When does the rover ship?" },
    ],
  });
  expect(completion.choices[0]!.message.content).toBe("From upstream.");
  expect(received.at(-1)!.messages[0]).toEqual({ role: "system", content });
}, 60_000);
