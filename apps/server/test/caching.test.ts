/**
 * Context caching end to end on a real port with plain fetch (docs/api-compat.md §7.1; the official SDKs have no
 * caching methods): create → pending → ready, use by headers and by a `role: "cache"` message, tags, dry run, reset
 * TTL, update and delete, and the bills to the nano-unit: creation per token, storage per started minute while ready,
 * a fee per call, and cached tokens not billed as input.
 */
import type { AddressInfo } from "node:net";
import { CONTEXT_CACHING_PRICES, findModel, parseMoney, perTokenNanos } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantBalance } from "../src/modules/billing/grant-balance.ts";
import { prepareCache } from "../src/modules/caches/cache-jobs.ts";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { addOrgMember, signUp } from "./console-helpers.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { readBalance } from "./support/money.ts";

let now = Date.parse("2027-03-01T10:00:00Z");
const clock = { now: () => new Date(now) };
let t: TestApp;
let base: string;
let account: Awaited<ReturnType<typeof seedAccount>>;

const PRICES = CONTEXT_CACHING_PRICES.CNY;
/** Well over 128k tokens (numbered words do not merge into long tokens). */
const LONG = Array.from({ length: 90_000 }, (_, i) => `w${i}`).join(" ");
const SYSTEM = { role: "system", content: "You answer questions about the Moonport handbook." };
const DOC = {
  role: "system",
  content: `Handbook. ${"Refunds are accepted within 30 days of purchase. ".repeat(40)}`,
};

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${account.key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON bodies
  const json = (await res.json()) as Record<string, any>;
  return { status: res.status, headers: res.headers, body: json };
}

async function bills(where?: { cache?: string; orgId?: string }) {
  await t.ctx.meter.flush();
  const rows = await t.ctx.db
    .select()
    .from(schema.requestBills)
    .where(
      and(
        eq(schema.requestBills.orgId, where?.orgId ?? account.orgId),
        where?.cache ? eq(schema.requestBills.contextCacheId, where.cache) : undefined,
      ),
    );
  return rows;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  account = await seedAccount(t.ctx, { cash: "100", tierOverride: 5 });
});
afterAll(async () => {
  await t.close();
});

describe("context caching API", () => {
  let cacheId: string;
  let tokens: number;

  it("creates a pending cache, makes it ready in the background and bills its creation once", async () => {
    const created = await api("POST", "/caching", {
      model: "moonshot-v1",
      messages: [SYSTEM, DOC],
      name: "handbook",
      metadata: { team: "support" },
      ttl: 600,
      tags: ["handbook"],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      object: "context-cache",
      status: "pending",
      model: "moonshot-v1",
      name: "handbook",
      metadata: { team: "support" },
      expired_at: Math.floor(now / 1000) + 600,
    });
    expect(created.body.id).toMatch(/^cache-[0-9a-v]{20}$/);
    cacheId = created.body.id;
    tokens = created.body.tokens;
    expect(tokens).toBeGreaterThan(300);

    await t.ctx.jobs.runDue();
    await t.ctx.jobs.runDue();
    const got = await api("GET", `/caching/${cacheId}`);
    expect(got.body.status).toBe("ready");
    const creation = (await bills({ cache: cacheId })).filter((b) => b.productName === "context_cache_creation");
    expect(creation).toHaveLength(1);
    expect(creation[0]!.productType).toBe("context_caching");
    expect(creation[0]!.consumption).toBe(BigInt(tokens) * perTokenNanos(PRICES.create));
  });

  it("uses the cache through a role: cache message: cached tokens are not input, a call fee is billed", async () => {
    const res = await api("POST", "/chat/completions", {
      model: "moonshot-v1-8k",
      messages: [
        { role: "cache", content: "tag=handbook;reset_ttl=600" },
        { role: "user", content: "How long do I have to ask for a refund?" },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get("msh-context-cache-id")).toBe(cacheId);
    expect(res.headers.get("msh-context-cache-token-saved")).toBe(String(tokens));
    expect(res.headers.get("msh-context-cache-token-exp")).toBe(String(Math.floor(now / 1000) + 600));
    // The body reports the saved tokens the header names (docs/api-compat.md §2.7).
    expect(res.body.usage.cached_tokens).toBe(tokens);
    expect(res.body.usage.prompt_tokens_details).toEqual({ cached_tokens: tokens });
    const rows = (await bills({ cache: cacheId })).filter((b) => b.requestId === res.headers.get("msh-request-id"));
    const inference = rows.find((r) => r.productType === "model_inference")!;
    const call = rows.find((r) => r.productName === "context_cache_call")!;
    expect(call.consumption).toBe(parseMoney(PRICES.call));
    const model = findModel("moonshot-v1-8k")!;
    expect(inference.cachedTokens).toBe(tokens);
    expect(inference.inputTokens).toBe(res.body.usage.prompt_tokens);
    expect(inference.consumption).toBe(
      BigInt(inference.inputTokens - tokens) * perTokenNanos(model.prices.CNY.input) +
        BigInt(inference.outputTokens) * perTokenNanos(model.prices.CNY.output),
    );
  });

  it("reports the cache's tokens as cached in streamed usage", async () => {
    const res = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "moonshot-v1-8k",
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: "cache", content: "tag=handbook" },
          { role: "user", content: "Refunds?" },
        ],
      }),
    });
    expect(res.headers.get("msh-context-cache-token-saved")).toBe(String(tokens));
    const chunks = (await res.text())
      .split("\n\n")
      .filter((e) => e.startsWith("data: {"))
      .map((e) => JSON.parse(e.slice(6)));
    const finalUsage = chunks.find((c) => c.choices.length === 0).usage;
    const choiceUsage = chunks.find((c) => c.choices[0]?.finish_reason).choices[0].usage;
    for (const usage of [finalUsage, choiceUsage]) {
      expect(usage.cached_tokens).toBe(tokens);
      expect(usage.prompt_tokens_details).toEqual({ cached_tokens: tokens });
    }
  });

  it("uses it by header only when the request repeats the cached messages exactly", async () => {
    const question = { role: "user", content: "Summarize the refund rule." };
    // Same messages, keys in another order: the canonical hash matches.
    const hit = await api(
      "POST",
      "/chat/completions",
      {
        model: "moonshot-v1-8k",
        messages: [{ content: SYSTEM.content, role: "system" }, DOC, question],
      },
      { "X-Msh-Context-Cache": cacheId },
    );
    expect(hit.status).toBe(200);
    expect(hit.headers.get("msh-context-cache-id")).toBe(cacheId);

    const miss = await api(
      "POST",
      "/chat/completions",
      { model: "moonshot-v1-8k", messages: [SYSTEM, question] },
      { "X-Msh-Context-Cache": cacheId },
    );
    expect(miss.status).toBe(200);
    expect(miss.headers.get("msh-context-cache-id")).toBeNull();
    const missRows = (await bills()).filter((b) => b.requestId === miss.headers.get("msh-request-id"));
    expect(missRows).toHaveLength(1);
    expect(missRows[0]!.contextCacheId).toBeNull();
  });

  it("answers a dry run without inference or bills", async () => {
    const before = (await bills()).length;
    const res = await api("POST", "/chat/completions", {
      model: "moonshot-v1-8k",
      messages: [{ role: "cache", content: `cache_id=${cacheId};dry_run=1` }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: "context-cache.dry_run", cache_id: cacheId, used: true, tokens_saved: tokens });
    expect((await bills()).length).toBe(before);
  });

  it("bills storage per started minute while ready, once per minute, and retires the cache at expiry", async () => {
    const perMinute = BigInt(tokens) * perTokenNanos(PRICES.storagePerMinute);
    const storage = async () =>
      (await bills({ cache: cacheId })).filter((b) => b.productName === "context_cache_storage");
    now += 150_000; // 2.5 minutes: three minutes have started
    await t.ctx.jobs.runDue();
    await t.ctx.jobs.runDue();
    expect((await storage()).map((b) => b.consumption)).toEqual([perMinute, perMinute, perMinute]);
    now += 10_000; // still within the third minute: nothing new
    await t.ctx.jobs.runDue();
    expect(await storage()).toHaveLength(3);
    now += 20 * 60_000; // past the expiry (10 minutes after the reset): 10 minutes in all, then inactive
    await t.ctx.jobs.runDue();
    expect(await storage()).toHaveLength(10);
    expect((await api("GET", `/caching/${cacheId}`)).body.status).toBe("inactive");
    // An inactive cache is not used; the call is billed at normal prices.
    const res = await api("POST", "/chat/completions", {
      model: "moonshot-v1-8k",
      messages: [
        { role: "cache", content: `cache_id=${cacheId}` },
        { role: "user", content: "Refunds?" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("msh-context-cache-id")).toBeNull();
  });

  it("updates (back to pending, then ready), lists with cursors, and deletes", async () => {
    const put = await api("PUT", `/caching/${cacheId}`, { ttl: 300, metadata: { team: "billing" } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ status: "pending", metadata: { team: "billing" } });
    await t.ctx.jobs.runDue();
    expect((await api("GET", `/caching/${cacheId}`)).body.status).toBe("ready");

    const second = await api("POST", "/caching", { model: "moonshot-v1", messages: [SYSTEM] });
    const list = await api("GET", "/caching?limit=1");
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([second.body.id]);
    const next = await api("GET", `/caching?limit=1&after=${second.body.id}`);
    expect(next.body.data.map((c: { id: string }) => c.id)).toEqual([cacheId]);
    const byMeta = await api("GET", "/caching?metadata[team]=billing");
    expect(byMeta.body.data.map((c: { id: string }) => c.id)).toEqual([cacheId]);

    const del = await api("DELETE", `/caching/${cacheId}`);
    expect(del.body).toEqual({ deleted: true, id: cacheId, object: "context_cache_object.deleted" });
    expect((await api("GET", `/caching/${cacheId}`)).status).toBe(404);
    expect((await api("DELETE", `/caching/${cacheId}`)).status).toBe(404);
  });

  it("manages tags", async () => {
    const c = await api("POST", "/caching", { model: "moonshot-v1", messages: [SYSTEM, DOC] });
    const tag = await api("POST", "/caching/refs/tags", { tag: "faq-v.two", cache_id: c.body.id });
    expect(tag.body).toMatchObject({ tag: "faq-v.two", cache_id: c.body.id, object: "cache_object.tag" });
    expect((await api("GET", "/caching/refs/tags/faq-v.two")).body.cache_id).toBe(c.body.id);
    expect((await api("GET", "/caching/refs/tags/faq-v.two/content")).body.id).toBe(c.body.id);
    expect((await api("GET", "/caching/refs/tags")).body.data.map((x: { tag: string }) => x.tag)).toContain(
      "faq-v.two",
    );
    expect((await api("DELETE", "/caching/refs/tags/faq-v.two")).body).toEqual({
      deleted: true,
      object: "cache_object.tag.deleted",
      tag: "faq-v.two",
    });
    expect((await api("DELETE", "/caching/refs/tags/faq-v.two")).status).toBe(200);
    expect((await api("GET", "/caching/refs/tags/faq-v.two")).status).toBe(404);
    // Digits after the first letter (docs/api-compat.md §7.1).
    const digits = await api("POST", "/caching/refs/tags", { tag: "lease-v1", cache_id: c.body.id });
    expect(digits.status, JSON.stringify(digits.body)).toBe(200);
    expect((await api("GET", "/caching/refs/tags/lease-v1")).body.cache_id).toBe(c.body.id);
  });

  it("refuses bad input with a §3 error and stores nothing", async () => {
    const count = async () =>
      (await t.ctx.db.select().from(schema.contextCaches).where(eq(schema.contextCaches.orgId, account.orgId))).length;
    const before = await count();
    const cases: [unknown, RegExp][] = [
      [{ model: "moonshot-v1-8k", messages: [SYSTEM] }, /model must be "moonshot-v1"/],
      [{ model: "moonshot-v1", messages: [] }, /messages must be a non-empty array/],
      [{ model: "moonshot-v1", messages: [SYSTEM, { role: "assistant", content: "x", partial: true }] }, /partial/],
      [{ model: "moonshot-v1", messages: [SYSTEM], ttl: 60, expired_at: Math.floor(now / 1000) + 60 }, /either/],
      [{ model: "moonshot-v1", messages: [SYSTEM], ttl: 7200 }, /at most 3600 seconds/],
      [{ model: "moonshot-v1", messages: [SYSTEM], expired_at: Math.floor(now / 1000) - 1 }, /later than now/],
      [{ model: "moonshot-v1", messages: [SYSTEM], name: "n".repeat(257) }, /name must be at most 256/],
      [{ model: "moonshot-v1", messages: [SYSTEM], tags: ["9lives"] }, /tags must be/],
      [{ model: "moonshot-v1", messages: [{ role: "user", content: LONG }] }, /at most 128000 tokens/],
      [
        {
          model: "moonshot-v1",
          messages: [SYSTEM],
          metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])),
        },
        /at most 16 pairs/,
      ],
      [{ model: "moonshot-v1", messages: [SYSTEM], metadata: { team: 7 } }, /metadata.team must be a string/],
      [{ model: "moonshot-v1", messages: [SYSTEM], description: "d".repeat(513) }, /description must be at most 512/],
    ];
    for (const [body, message] of cases) {
      const res = await api("POST", "/caching", body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body.error.type).toBe("invalid_request_error");
      expect(res.body.error.message).toMatch(message);
    }
    expect(await count()).toBe(before);

    const withTools = await api("POST", "/chat/completions", {
      model: "moonshot-v1-8k",
      messages: [{ role: "cache", content: "tag=handbook" }],
      tools: [],
    });
    expect(withTools.status).toBe(400);
    expect(withTools.body.error.message).toMatch(/tools must be null/);
    const badField = await api("POST", "/chat/completions", {
      model: "moonshot-v1-8k",
      messages: [{ role: "cache", content: "cache_id=x;ttl=5" }],
    });
    expect(badField.body.error.message).toMatch(/unknown field 'ttl'/);
    const others: [string, string, unknown, RegExp][] = [
      ["GET", "/caching?limit=0", undefined, /limit must be an integer from 1 to 100/],
      ["GET", "/caching?order=sideways", undefined, /order must be asc or desc/],
      ["GET", "/caching/refs/tags?limit=101", undefined, /limit must be an integer from 1 to 100/],
      ["POST", "/caching/refs/tags", { tag: "1bad", cache_id: "cache-x" }, /tag must be 1-128 characters/],
      [
        "POST",
        "/chat/completions",
        { model: "moonshot-v1-8k", messages: [{ role: "cache", content: "tag=handbook;reset_ttl=0" }] },
        /reset_ttl must be an integer from 1 to 3600/,
      ],
    ];
    for (const [method, path, body, message] of others) {
      const res = await api(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    const someCache = await api("POST", "/caching", { model: "moonshot-v1", messages: [SYSTEM] });
    const emptyUpdate = await api("PUT", `/caching/${someCache.body.id}`, {});
    expect(emptyUpdate.status).toBe(400);
    expect(emptyUpdate.body.error.message).toMatch(/send metadata, expired_at or ttl/);
    expect((await api("GET", `/caching/${someCache.body.id}`)).body.status).toBe("pending");
    const unknown = await api("GET", "/caching/cache-doesnotexist");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe("resource_not_found_error");
  });

  it("refuses a cache that would take the organization past 1M stored tokens", async () => {
    const other = await seedAccount(t.ctx, { cash: "10", tierOverride: 5 });
    const stored = (id: string, tokens: number, status: "ready" | "inactive") => ({
      id,
      orgId: other.orgId,
      projectId: other.projectId,
      apiKeyId: other.keyId,
      model: "moonshot-v1",
      messages: [SYSTEM],
      contentHash: "x",
      tokens,
      status,
      expiredAt: new Date(now + 3_600_000),
    });
    // Inactive caches hold no storage; ready ones do.
    await t.ctx.db
      .insert(schema.contextCaches)
      .values([
        stored(`cache-full-${other.orgId}`, 999_990, "ready"),
        stored(`cache-old-${other.orgId}`, 500_000, "inactive"),
      ]);
    const res = await fetch(`${base}/caching`, {
      method: "POST",
      headers: { authorization: `Bearer ${other.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "moonshot-v1", messages: [SYSTEM, DOC] }),
    });
    const body = (await res.json()) as { error: { message: string } };
    expect(res.status).toBe(400);
    expect(body.error.message).toMatch(/more than the 1000000 allowed/);
  });

  it("shows the organization's caches with their figures and savings in the console (admins only)", async () => {
    const admin = await signUp(t);
    await grantBalance({
      ctx: t.ctx,
      orgId: admin.orgId,
      amount: parseMoney("50"),
      note: "t",
      createdBy: admin.userId,
    });
    await t.ctx.db
      .update(schema.organizations)
      .set({ tierOverride: 5 })
      .where(eq(schema.organizations.id, admin.orgId));
    const { key } = await createApiKey({
      db: t.ctx.db,
      orgId: admin.orgId,
      projectId: admin.defaultProjectId,
      name: "k",
      createdBy: admin.userId,
    });
    const call = async (path: string, body: unknown) =>
      (await fetch(`${base}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json())) as Record<string, unknown>;
    const cache = await call("/caching", { model: "moonshot-v1", messages: [SYSTEM, DOC] });
    await t.ctx.jobs.runDue();
    for (let i = 0; i < 2; i++) {
      await call("/chat/completions", {
        model: "moonshot-v1-8k",
        messages: [
          { role: "cache", content: `cache_id=${cache.id}` },
          { role: "user", content: `Question ${i}?` },
        ],
      });
    }
    await t.ctx.meter.flush();
    const res = await admin.client.get(`/api/orgs/${admin.orgId}/context-caches`);
    expect(res.status).toBe(200);
    const row = res.body.items[0];
    const lines = await bills({ cache: String(cache.id), orgId: admin.orgId });
    const sum = (name: string) => lines.filter((l) => l.productName === name).reduce((s, l) => s + l.consumption, 0n);
    const inference = lines.filter((l) => l.productType === "model_inference");
    const input = perTokenNanos(findModel("moonshot-v1-8k")!.prices.CNY.input);
    const avoided = inference.reduce((s, l) => s + BigInt(l.cachedTokens) * input, 0n);
    const cacheCost = sum("context_cache_call") + sum("context_cache_creation") + sum("context_cache_storage");
    expect(row).toMatchObject({
      id: cache.id,
      status: "ready",
      calls: 2,
      spend: {
        call: String(sum("context_cache_call")),
        creation: String(sum("context_cache_creation")),
        chat: String(inference.reduce((s, l) => s + l.consumption, 0n)),
      },
      savings: String(avoided - cacheCost),
    });
    expect(res.body.summary).toMatchObject({ caches: 1, calls: 2, savings: String(avoided - cacheCost) });
    // A context this small saves less per call than the call fee: the table says so with a negative saving.
    expect(BigInt(row.savings)).toBeLessThan(0n);
    // A member of the organization is not shown spend.
    const member = await signUp(t);
    await addOrgMember(t, admin.orgId, member, "member");
    expect((await member.client.get(`/api/orgs/${admin.orgId}/context-caches`)).status).toBe(403);
  });

  it("counts the cached tokens toward the organization's TPM", async () => {
    const small = await seedAccount(t.ctx, { cash: "10", tierOverride: 5 });
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${small.key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const cache = (await (await post("/caching", { model: "moonshot-v1", messages: [SYSTEM, DOC] })).json()) as {
      id: string;
      tokens: number;
    };
    await t.ctx.jobs.runDue();
    // A TPM that fits the question and its answer but not the cached context as well.
    await t.ctx.db
      .update(schema.organizations)
      .set({ rateLimitOverride: { concurrency: 10, rpm: 100, tpm: cache.tokens, tpd: null } })
      .where(eq(schema.organizations.id, small.orgId));
    await t.ctx.keyEvents.invalidate({ orgId: small.orgId });
    const res = await post("/chat/completions", {
      model: "moonshot-v1-8k",
      max_tokens: 16,
      messages: [
        { role: "cache", content: `cache_id=${cache.id}` },
        { role: "user", content: "Refunds?" },
      ],
    });
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("rate_limit_reached_error");
  });

  it("admits a creation like a chat call: no balance, no cache", async () => {
    const broke = await seedAccount(t.ctx, { tierOverride: 5 });
    const res = await fetch(`${base}/caching`, {
      method: "POST",
      headers: { authorization: `Bearer ${broke.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "moonshot-v1", messages: [SYSTEM] }),
    });
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("exceeded_current_quota_error");
    const rows = await t.ctx.db.select().from(schema.contextCaches).where(eq(schema.contextCaches.orgId, broke.orgId));
    expect(rows).toHaveLength(0);
  });

  it("keeps another organization's caches out of reach", async () => {
    const mine = await api("POST", "/caching", { model: "moonshot-v1", messages: [SYSTEM] });
    const other = await seedAccount(t.ctx, { cash: "10", tierOverride: 5 });
    const res = await fetch(`${base}/caching/${mine.body.id}`, { headers: { authorization: `Bearer ${other.key}` } });
    expect(res.status).toBe(404);
    const rows = await t.ctx.db
      .select()
      .from(schema.requestBills)
      .where(and(eq(schema.requestBills.orgId, other.orgId), isNotNull(schema.requestBills.contextCacheId)));
    expect(rows).toHaveLength(0);
  });

  it("bills a creation once when its preparation is retried later (a crash between the bill and the state)", async () => {
    const created = await api("POST", "/caching", { model: "moonshot-v1", messages: [SYSTEM, DOC] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id as string;
    await t.ctx.jobs.runDue();
    const creations = async () =>
      (await bills({ cache: id })).filter((b) => b.productName === "context_cache_creation");
    expect(await creations()).toHaveLength(1);
    const cash = async () => (await readBalance(t.ctx.db, account.orgId)).cashBalance;
    const before = await cash();
    // As if the process had died after committing the creation's bill and before recording it on the cache.
    await t.ctx.db
      .update(schema.contextCaches)
      .set({ status: "pending", creationBilled: false })
      .where(eq(schema.contextCaches.id, id));
    const saved = now;
    now += 90_000;
    try {
      await prepareCache(t.ctx, id);
    } finally {
      now = saved;
    }
    expect(await creations()).toHaveLength(1);
    expect(await cash()).toBe(before);
  });
});
