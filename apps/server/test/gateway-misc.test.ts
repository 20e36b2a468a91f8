/**
 * Gateway behaviour beyond single completions: client disconnects on the paced simulator, the balance envelope
 * from the database, automatic prefix caching and answers drawn from the documentation.
 */
import type { AddressInfo } from "node:net";
import { schema } from "@moonport/db";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization } from "../src/modules/orgs/create-organization.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { FIXTURE_DOCS } from "./support/fixtures.ts";
import { seedGrant, seedVoucher } from "./support/money.ts";
import { TestPipeline } from "./support/test-pipeline.ts";

let t: TestApp;
let pipeline: TestPipeline;
let client: OpenAI;
let baseURL: string;

beforeAll(async () => {
  pipeline = new TestPipeline();
  // A slow pace so that a client can leave in the middle of a stream.
  t = await createTestApp(
    { DOCS_DIR: FIXTURE_DOCS, SIMULATOR_DELAY_MS: "25" },
    { pipeline: (ctx) => pipeline.withDb(ctx.db) },
  );
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseURL = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  client = new OpenAI({ apiKey: pipeline.addKey().key, baseURL, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
});

describe("gateway behaviour", () => {
  it("stops the simulator when the client disconnects mid-stream and settles only what was produced", async () => {
    const abort = new AbortController();
    const res = await fetch(`${baseURL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "moonshot-v1-8k",
        stream: true,
        messages: [{ role: "user", content: "Tell me a long story about the sea." }],
      }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    let text = "";
    while ((text.match(/"content":"[^"]+"/g) ?? []).length < 3)
      text += new TextDecoder().decode((await reader.read()).value);
    const before = pipeline.settled.length;
    abort.abort();
    await pipeline.waitForSettled(before + 1);
    const s = pipeline.settled[before]!;
    expect(s.status).toBe("client_closed");
    expect(s.usage.completionTokens).toBeGreaterThanOrEqual(3);
    expect(s.usage.completionTokens).toBeLessThan(20);
    expect(pipeline.inFlight).toBe(0);
  });

  it("reports the organization's balance in the documented envelope", async () => {
    const db = t.ctx.db;
    await db.insert(schema.users).values({ id: "usr_balance", username: "balance_user" });
    const { orgId, projectId } = await createOrganization({
      db,
      name: "Balance Org",
      edition: "cn",
      creatorUserId: "usr_balance",
      creatorNickname: "B",
    });
    await seedGrant(t.ctx, orgId, 3_000_010_000n);
    await seedVoucher(t.ctx, orgId, 46_588_930_000n, new Date(Date.now() + 86_400_000), "register");
    await seedVoucher(t.ctx, orgId, 5_000_000_000n, new Date(Date.now() - 1000), "activity");
    const key = pipeline.addKey({ orgId, projectId }).key;
    const res = await fetch(`${baseURL}/users/me/balance`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      code: 0,
      data: { available_balance: 49.58894, voucher_balance: 46.58893, cash_balance: 3.00001 },
      scode: "0x0",
      status: true,
    });
  });

  it("reports repeated conversation prefixes as cached tokens on models with automatic caching", async () => {
    const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: "system", content: "You are a concise assistant for a shipping company." },
      { role: "user", content: "What is a bill of lading?" },
    ];
    const first = await client.chat.completions.create({
      model: "kimi-k2-0905-preview",
      messages: history,
      max_tokens: 5,
    });
    expect(first.usage!.prompt_tokens_details?.cached_tokens).toBe(0);
    history.push(first.choices[0]!.message, { role: "user", content: "And a waybill?" });
    const second = await client.chat.completions.create({
      model: "kimi-k2-0905-preview",
      messages: history,
      max_tokens: 5,
    });
    const cached = second.usage!.prompt_tokens_details!.cached_tokens!;
    expect(cached).toBeGreaterThan(10);
    expect(cached).toBeLessThan(second.usage!.prompt_tokens);
    const plain = await client.chat.completions.create({ model: "moonshot-v1-8k", messages: history, max_tokens: 5 });
    expect(plain.usage!.prompt_tokens_details?.cached_tokens).toBe(0);
  });

  it("answers questions about the platform from the documentation, in the question's language", async () => {
    const en = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      messages: [{ role: "user", content: "How does partial mode work?" }],
    });
    expect(en.choices[0]!.message.content).toContain("/docs/guide/partial-mode");
    const zh = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      messages: [{ role: "user", content: "速率限制的等级是怎么决定的？" }],
    });
    expect(zh.choices[0]!.message.content).toContain("累计现金充值");
  });
});
