/**
 * The real /v1 routes on the real pipeline: keys, limits and bills end to end. 500 concurrent chat completions
 * through the app must move the balance by exactly the sum of the bill rows, and the bills must match the usage
 * each response reported (gateway-concurrency.test.ts does the same on two instances through the pipeline).
 */
import { findModel } from "@moonport/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inferenceCost } from "../src/metering/pricing.ts";
import { disableApiKey } from "../src/modules/keys/disable-api-key.ts";
import { orgMoney, seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { FIXTURE_DOCS } from "./support/fixtures.ts";

const FLOWS = 500;

describe("the /v1 gateway on the real pipeline", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DOCS_DIR: FIXTURE_DOCS });
  });
  afterAll(async () => {
    await t?.close();
  });

  const chat = (key: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      payload: JSON.stringify({ model: "moonshot-v1-8k", messages: [{ role: "user", content: "Hello" }], ...body }),
    });

  it(`${FLOWS} concurrent chat completions are each billed once, exactly as their usage says`, async () => {
    const acct = await seedAccount(t.ctx, { cash: "100", tierOverride: 5 });
    const start = await orgMoney(t.ctx.db, acct.orgId);
    const responses = await Promise.all(
      Array.from({ length: FLOWS }, (_, i) =>
        chat(acct.key, {
          messages: [{ role: "user", content: `Question number ${i}: what is ${i} + ${i}?` }],
          max_tokens: 20 + (i % 40),
        }),
      ),
    );
    let expected = 0n;
    for (const res of responses) {
      expect(res.statusCode).toBe(200);
      expect(res.headers["x-ratelimit-limit-requests"]).toBe("10000");
      const usage = res.json().usage as { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
      expected += inferenceCost(findModel("moonshot-v1-8k")!, "CNY", {
        promptTokens: usage.prompt_tokens,
        completionTokens: usage.completion_tokens,
        cachedTokens: usage.cached_tokens ?? 0,
      });
    }
    await t.ctx.meter.flush();
    const end = await orgMoney(t.ctx.db, acct.orgId);
    expect(end.bills.requests).toBe(FLOWS);
    expect(end.bills.consumption).toBe(expected);
    expect(start.cash - end.cash).toBe(expected);
    expect(end.ledgerCash).toBe(end.cash);
  });

  it("answers with the 401 of a disabled key and the 429 of an exhausted RPM", async () => {
    const acct = await seedAccount(t.ctx, { cash: "1" }); // Tier0: 3 RPM
    for (let i = 0; i < 3; i++) expect((await chat(acct.key, {})).statusCode).toBe(200);
    const limited = await chat(acct.key, {});
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/);
    expect(limited.json().error.type).toBe("rate_limit_reached_error");
    await disableApiKey({ db: t.ctx.db, keyEvents: t.ctx.keyEvents, orgId: acct.orgId, keyId: acct.keyId });
    const refused = await chat(acct.key, {});
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      error: { type: "invalid_authentication_error", message: "Incorrect API key provided" },
    });
  });
});
