/**
 * Official tools for API users (docs/api-compat.md §9): GET /v1/formulas/{uri}/tools and POST …/fibers on a real port,
 * each tool run once, bad calls, the SSRF guard of the fetch tool, and billing: web-search one fee per call,
 * everything else free.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseMoney, TOOL_PRICES } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbound } from "../src/tools/outbound.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
let base: string;
let account: Awaited<ReturnType<typeof seedAccount>>;
let page: http.Server;
let pagePort: number;
let pageHits = 0;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  account = await seedAccount(t.ctx, { cash: "100" });
  page = http.createServer((_req, res) => {
    pageHits++;
    res
      .writeHead(200, { "content-type": "text/html" })
      .end("<html><body><h1>Moon facts</h1><p>The Moon is 384,400 km away.</p></body></html>");
  });
  await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
  pagePort = (page.address() as AddressInfo).port;
});
afterAll(async () => {
  page.close();
  await t.close();
});

async function api(method: string, path: string, body?: unknown, key = account.key) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON bodies
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
const fiber = (uri: string, name: string, args: unknown) =>
  api("POST", `/formulas/${uri}/fibers`, { name, arguments: JSON.stringify(args) });

async function bills() {
  await t.ctx.meter.flush();
  return t.ctx.db.select().from(schema.requestBills).where(eq(schema.requestBills.orgId, account.orgId));
}

const URIS = [
  "moonshot/web-search:latest",
  "moonshot/date:latest",
  "moonshot/convert:latest",
  "moonshot/random-choice:latest",
  "moonshot/base64:latest",
  "moonshot/fetch:latest",
  "moonshot/rethink:latest",
  "moonshot/memory:latest",
  "moonshot/excel:latest",
  "moonshot/quickjs:latest",
  "moonshot/code_runner:latest",
  "moonshot/mew:latest",
];

describe("GET /v1/formulas/{uri}/tools", () => {
  it("lists OpenAI function definitions for every official tool", async () => {
    for (const uri of URIS) {
      const res = await api("GET", `/formulas/${uri}/tools`);
      expect(res.status, uri).toBe(200);
      expect(res.body.tools.length).toBeGreaterThan(0);
      for (const tool of res.body.tools) {
        expect(tool.type).toBe("function");
        expect(tool.function.name).toMatch(/^[A-Za-z_][A-Za-z0-9_-]*$/);
        expect(tool.function.description.length).toBeGreaterThan(10);
        expect(tool.function.parameters.type).toBe("object");
      }
    }
  });

  it("answers 404 for an unknown formula and 401 without a key", async () => {
    const res = await api("GET", "/formulas/moonshot/nope:latest/tools");
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: "resource_not_found_error" });
    const anon = await api("GET", "/formulas/moonshot/date:latest/tools", undefined, "sk-wrong");
    expect(anon.status).toBe(401);
  });
});

describe("POST /v1/formulas/{uri}/fibers", () => {
  it("runs the free tools and bills nothing", async () => {
    const date = await fiber("moonshot/date:latest", "date", {
      timezone: "Asia/Shanghai",
      date: "2026-01-01T00:00:00Z",
    });
    expect(date.body.status).toBe("succeeded");
    expect(JSON.parse(date.body.context.output)).toMatchObject({
      local: "2026-01-01 08:00:00",
      weekday: "Thursday",
      utc_offset: "+08:00",
    });
    const conv = await fiber("moonshot/convert:latest", "convert", { value: 100, from: "C", to: "F" });
    expect(JSON.parse(conv.body.context.output).result).toBe(212);
    const km = await fiber("moonshot/convert:latest", "convert", { value: 1, from: "mi", to: "km" });
    expect(JSON.parse(km.body.context.output).result).toBe(1.609344);
    const pick = await fiber("moonshot/random-choice:latest", "random_choice", {
      candidates: ["a", "b", "c"],
      count: 3,
    });
    expect(JSON.parse(pick.body.context.output).choices.sort()).toEqual(["a", "b", "c"]);
    const enc = await fiber("moonshot/base64:latest", "base64_encode", { data: "月球 moon" });
    expect(enc.body.context.output).toBe(Buffer.from("月球 moon").toString("base64"));
    const dec = await fiber("moonshot/base64:latest", "base64_decode", { data: enc.body.context.output });
    expect(dec.body.context.output).toBe("月球 moon");
    const think = await fiber("moonshot/rethink:latest", "rethink", { thought: "check units first" });
    expect(JSON.parse(think.body.context.output)).toEqual({ thought: "check units first" });
    const js = await fiber("moonshot/quickjs:latest", "quickjs", {
      code: "console.log('hi'); [1,2,3].map(x => x * x)",
    });
    expect(JSON.parse(js.body.context.output)).toEqual({ result: [1, 4, 9], console: ["hi"] });
    const runner = await fiber("moonshot/code_runner:latest", "code_runner", {
      language: "javascript",
      code: "let s = 0; for (let i = 1; i <= 100; i++) s += i; console.log(s);",
    });
    expect(JSON.parse(runner.body.context.output).console).toEqual(["5050"]);
    const mew = await fiber("moonshot/mew:latest", "mew", {});
    expect(JSON.parse(mew.body.context.output).sound).toBeTruthy();
    expect(await bills()).toHaveLength(0);
  });

  it("keeps memory per project", async () => {
    expect(
      (await fiber("moonshot/memory:latest", "memory", { action: "store", key: "city", value: "Oslo" })).body.status,
    ).toBe("succeeded");
    const got = await fiber("moonshot/memory:latest", "memory", { action: "retrieve", key: "city" });
    expect(JSON.parse(got.body.context.output)).toMatchObject({ key: "city", value: "Oslo" });
    const list = await fiber("moonshot/memory:latest", "memory", { action: "list" });
    expect(JSON.parse(list.body.context.output).keys).toEqual(["city"]);
    const other = await seedAccount(t.ctx, { cash: "1" });
    const elsewhere = await api(
      "POST",
      "/formulas/moonshot/memory:latest/fibers",
      {
        name: "memory",
        arguments: JSON.stringify({ action: "retrieve", key: "city" }),
      },
      other.key,
    );
    expect(JSON.parse(elsewhere.body.context.output)).toEqual({ key: "city", found: false });
    await fiber("moonshot/memory:latest", "memory", { action: "delete", key: "city" });
    expect(
      JSON.parse((await fiber("moonshot/memory:latest", "memory", { action: "list" })).body.context.output).keys,
    ).toEqual([]);
  });

  it("reads an uploaded spreadsheet of the organization", async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet("Sales");
    sheet.addRow(["month", "amount"]);
    sheet.addRow(["Jan", 120]);
    sheet.addRow(["Feb", 80]);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const form = new FormData();
    form.set("purpose", "file-extract");
    form.set("file", new Blob([data]), "sales.xlsx");
    const up = await fetch(`${base}/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.key}` },
      body: form,
    });
    const file = (await up.json()) as { id: string };
    expect(up.status, JSON.stringify(file)).toBe(200);
    const res = await fiber("moonshot/excel:latest", "read_excel", { file_id: file.id });
    expect(res.body.status, JSON.stringify(res.body)).toBe("succeeded");
    expect(JSON.parse(res.body.context.output)).toMatchObject({
      sheets: ["Sales"],
      rows: [
        ["month", "amount"],
        ["Jan", 120],
        ["Feb", 80],
      ],
    });
    const missing = await fiber("moonshot/excel:latest", "read_excel", { file_id: "file_unknown" });
    expect(missing.body).toMatchObject({ status: "failed" });
  });

  it("bills web-search once per succeeded call", async () => {
    const before = (await bills()).length;
    const res = await fiber("moonshot/web-search:latest", "web_search", { query: "context caching price" });
    expect(res.body.status, JSON.stringify(res.body)).toBe("succeeded");
    expect(Array.isArray(JSON.parse(res.body.context.output).results)).toBe(true);
    const rows = await bills();
    expect(rows.length).toBe(before + 1);
    const fee = parseMoney(TOOL_PRICES.find((p) => p.name === "$web_search")!.price.CNY);
    expect(rows.at(-1)).toMatchObject({ productType: "$web_search", toolCalls: 1, consumption: fee });
    // A call refused for its arguments is not billed.
    await fiber("moonshot/web-search:latest", "web_search", { query: "" });
    expect((await bills()).length).toBe(before + 1);
  });

  it("refuses bad calls: unknown function, bad JSON, schema mismatch, missing name", async () => {
    expect((await fiber("moonshot/date:latest", "time", {})).body).toMatchObject({ status: "failed" });
    const bad = await api("POST", "/formulas/moonshot/convert:latest/fibers", { name: "convert", arguments: "{nope" });
    expect(bad.body).toEqual({ status: "failed", error: { message: "the arguments are not valid JSON" } });
    const mismatch = await fiber("moonshot/convert:latest", "convert", { value: "ten", from: "m", to: "ft" });
    expect(mismatch.body.error.message).toMatch(/invalid arguments: \/value must be number/);
    const units = await fiber("moonshot/convert:latest", "convert", { value: 1, from: "kg", to: "m" });
    expect(units.body.error.message).toMatch(/cannot convert kg to m/);
    const noName = await api("POST", "/formulas/moonshot/date:latest/fibers", { arguments: "{}" });
    expect(noName.status).toBe(400);
    expect(noName.body.error.type).toBe("invalid_request_error");
  });

  it("fetch: refuses private targets without contacting them, reads allow-listed ones", async () => {
    for (const url of [
      `http://127.0.0.1:${pagePort}/`,
      `http://[::1]:${pagePort}/`,
      "http://10.0.0.1/",
      "http://169.254.169.254/latest/meta-data/",
      `http://[::ffff:127.0.0.1]:${pagePort}/`,
      `http://localhost:${pagePort}/`,
    ]) {
      const res = await fiber("moonshot/fetch:latest", "fetch", { url });
      expect(res.body.status, url).toBe("failed");
      expect(res.body.error.message, url).toMatch(/^refused: /);
    }
    expect(pageHits).toBe(0);
    const guarded = t.ctx.outbound;
    t.ctx.outbound = createOutbound({ allowHosts: new Set(["127.0.0.1"]) });
    try {
      const ok = await fiber("moonshot/fetch:latest", "fetch", { url: `http://127.0.0.1:${pagePort}/moon` });
      expect(ok.body.status).toBe("succeeded");
      expect(ok.body.context.output).toMatch(/MOON FACTS[\s\S]*384,400 km/i);
      expect(pageHits).toBe(1);
    } finally {
      await t.ctx.outbound.close();
      t.ctx.outbound = guarded;
    }
  });
});
