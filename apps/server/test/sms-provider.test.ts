import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig, EnvError } from "../src/env.ts";
import { httpSmsProvider, SmsSendError } from "../src/modules/auth/sms/provider.ts";
import { uniquePhone } from "./auth-helpers.ts";
import { createTestApp, TestClient } from "./helpers.ts";

interface Received {
  auth: string | undefined;
  body: { phone: string; text: string };
}

let server: http.Server;
let url: string;
const received: Received[] = [];
let answer = 200;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(data) });
      res.statusCode = answer;
      res.end("{}");
    });
  });
  // Idle connections stay open for the whole file: with Node's 5 s default, the server closed the connection the
  // first test left in fetch's pool while a loaded CI machine built the production app, and the production test's
  // send met the closing socket (a 502 in one CI run).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("SMS providers", () => {
  it("HTTP provider posts {phone, text} with the bearer token and reports a refusal", async () => {
    const provider = httpSmsProvider({ url, token: "s3cret" });
    answer = 200;
    await provider.send({ phone: "+8613900000000", text: "hello", code: "123456" });
    expect(received.at(-1)).toEqual({ auth: "Bearer s3cret", body: { phone: "+8613900000000", text: "hello" } });
    answer = 500;
    await expect(provider.send({ phone: "+8613900000000", text: "x" })).rejects.toThrow(SmsSendError);
    await expect(
      httpSmsProvider({ url: "http://127.0.0.1:1/none" }).send({ phone: "+8613900000000", text: "x" }),
    ).rejects.toThrow("provider unreachable");
  });

  it("production mode refuses the development provider and a missing provider URL, naming the variables", () => {
    expect(() => buildConfig({ NODE_ENV: "production" })).toThrow(EnvError);
    try {
      buildConfig({ NODE_ENV: "production", SMS_PROVIDER: "dev" });
    } catch (e) {
      expect((e as EnvError).problems.join("\n")).toContain("SMS_PROVIDER: production mode needs a real SMS provider");
    }
    expect(() => buildConfig({ NODE_ENV: "production", SMS_PROVIDER: "http" })).toThrow(/SMS_HTTP_URL/);
    expect(buildConfig({ NODE_ENV: "production", SMS_PROVIDER: "http", SMS_HTTP_URL: url }).sms.provider).toBe("http");
  });

  it("in production sends codes through the HTTP provider and serves no development outbox", async () => {
    answer = 200;
    const t = await createTestApp({
      NODE_ENV: "production",
      SMS_PROVIDER: "http",
      SMS_HTTP_URL: url,
      SMS_HTTP_TOKEN: "prod-token",
    });
    try {
      const c = new TestClient(t.app);
      c.locale = "zh-CN";
      const phone = uniquePhone();
      const res = await c.post("/api/auth/sms", { phone: phone.local, purpose: "signup" });
      expect(res.status).toBe(200);
      const last = received.at(-1)!;
      expect(last.auth).toBe("Bearer prod-token");
      expect(last.body.phone).toBe(phone.e164);
      expect(last.body.text).toMatch(/^【Moonport】您的验证码是 \d{6}/);
      const outbox = await t.app.inject({
        url: `/api/dev/sms-outbox?phone=${phone.local}`,
        remoteAddress: "127.0.0.1",
      });
      expect(outbox.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
