/**
 * MCP servers of the playground against a real MCP server built with @modelcontextprotocol/sdk on loopback
 * (allow-listed through OUTBOUND_ALLOW_HOSTS): management with each auth type, credentials sealed at rest and
 * never answered, sync of the tool list, the §8 messages (unauthorized, server error, network error), and the
 * SSRF guard refusing loopback without the allow-list.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer as SdkMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { McpServer, McpServerList } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOutbound } from "../src/tools/outbound.ts";
import { signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

const TOKEN = "s3cret-bearer-token-value";
const KEY = "s3cret-api-key-value";
const USER = "mcp-user";
const PASSWORD = "s3cret-password-value";

let t: TestApp;
/** What the app logged at warn and above. */
const logs: { level: number; msg: string; code?: string; err?: { stack?: string } }[] = [];
let mcp: http.Server;
let mcpBase: string;

/** What each path demands: the test server checks credentials before the SDK sees the request. */
function authorized(req: http.IncomingMessage): boolean {
  const path = req.url ?? "";
  if (path.startsWith("/bearer")) return req.headers.authorization === `Bearer ${TOKEN}`;
  if (path.startsWith("/basic"))
    return req.headers.authorization === `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;
  if (path.startsWith("/apikey")) return req.headers["x-api-key"] === KEY;
  return true;
}

function sdkServer() {
  const server = new SdkMcpServer({ name: "moonport-test", version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Add two numbers", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool(
    "shout",
    { description: "Upper-case a text", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
  );
  server.registerTool("report", { description: "Link to a report", inputSchema: {} }, async () => ({
    content: [
      { type: "text", text: "The report is ready." },
      { type: "resource_link", uri: "https://files.example.com/r/42.txt", name: "report-42", mimeType: "text/plain" },
    ],
  }));
  return server;
}

beforeAll(async () => {
  mcp = http.createServer(async (req, res) => {
    // A server slow to answer: a sync of it can be watched while it runs.
    if (req.url?.startsWith("/slow")) await new Promise((r) => setTimeout(r, 400));
    if (req.url?.startsWith("/broken")) {
      res.writeHead(500).end("boom");
      return;
    }
    if (!authorized(req)) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    // Stateless Streamable HTTP: a server and transport per request.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = sdkServer();
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => mcp.listen(3211, "127.0.0.1", r));
  mcpBase = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}`;
  t = await createTestApp(
    { OUTBOUND_ALLOW_HOSTS: "127.0.0.1" },
    { logger: { level: "warn", stream: { write: (line: string) => void logs.push(JSON.parse(line)) } } },
  );
});
afterAll(async () => {
  mcp.close();
  await t.close();
});

const M = (u: TestUser) => `/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/playground/mcp-servers`;

describe("MCP servers", () => {
  it("connects with each auth type, syncs the tools, and never answers a secret", async () => {
    const u = await signUp(t);
    const bodies = [
      { name: "open", url: `${mcpBase}/open/mcp`, authType: "none" },
      { name: "bearer", url: `${mcpBase}/bearer/mcp`, authType: "bearer", token: TOKEN },
      { name: "basic", url: `${mcpBase}/basic/mcp`, authType: "basic", username: USER, password: PASSWORD },
      { name: "apikey", url: `${mcpBase}/apikey/mcp`, authType: "api_key", token: KEY, headerName: "X-Api-Key" },
    ];
    for (const body of bodies) {
      const created = await u.client.post(M(u), { ...body, timeoutMs: 5000 });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const server = McpServer.parse(created.body);
      expect(server).toMatchObject({ status: "disconnected", tools: [], lastConnectedAt: null });
      expect(server.tokenSet).toBe(body.authType === "bearer" || body.authType === "api_key");
      expect(server.passwordSet).toBe(body.authType === "basic");
      const synced = await u.client.post(`${M(u)}/${server.id}/sync`, {});
      expect(synced.status, JSON.stringify(synced.body)).toBe(200);
      const s = McpServer.parse(synced.body);
      expect(s.status).toBe("connected");
      expect(s.lastConnectedAt).not.toBeNull();
      expect(s.tools.map((x) => x.name).sort()).toEqual(["add", "report", "shout"]);
      expect(s.tools.find((x) => x.name === "add")?.inputSchema).toMatchObject({ type: "object" });
      for (const res of [created, synced]) {
        const text = JSON.stringify(res.body);
        for (const secret of [TOKEN, KEY, PASSWORD]) expect(text).not.toContain(secret);
      }
    }
    const list = McpServerList.parse((await u.client.get(M(u))).body);
    expect(list.items).toHaveLength(4);
    for (const secret of [TOKEN, KEY, PASSWORD]) expect(JSON.stringify(list)).not.toContain(secret);
    // Sealed at rest: the database holds no secret in clear.
    const rows = await t.ctx.db.select().from(schema.mcpServers).where(eq(schema.mcpServers.userId, u.userId));
    for (const secret of [TOKEN, KEY, PASSWORD]) expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows.find((r) => r.name === "bearer")?.tokenSealed).toMatch(/^v1:/);
  });

  it("says unauthorized for a wrong token, server error for a 500, network error when nothing listens", async () => {
    const u = await signUp(t);
    const wrong = McpServer.parse(
      (await u.client.post(M(u), { name: "wrong", url: `${mcpBase}/bearer/mcp`, authType: "bearer", token: "nope" }))
        .body,
    );
    const res = await u.client.post(`${M(u)}/${wrong.id}/sync`, {});
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("mcp_sync_unauthorized");
    u.client.locale = "zh-CN";
    const zh = await u.client.post(`${M(u)}/${wrong.id}/sync`, {});
    expect(zh.body.error.message).toMatch(/未授权/);
    u.client.locale = "en-US";
    const after = McpServer.parse((await u.client.get(M(u))).body.items[0]);
    expect(after.status).toBe("error");
    expect(after.lastError).toMatch(/^mcp_sync_unauthorized/);

    const broken = McpServer.parse((await u.client.post(M(u), { name: "broken", url: `${mcpBase}/broken/mcp` })).body);
    const b = await u.client.post(`${M(u)}/${broken.id}/sync`, {});
    expect(b.body.error.code, JSON.stringify(b.body)).toBe("mcp_sync_server_error");

    const down = McpServer.parse(
      (await u.client.post(M(u), { name: "down", url: "http://127.0.0.1:3219/mcp", timeoutMs: 2000 })).body,
    );
    const d = await u.client.post(`${M(u)}/${down.id}/sync`, {});
    expect(d.body.error.code, JSON.stringify(d.body)).toBe("mcp_sync_network_error");
  });

  it("shows connecting while a sync runs, then connected", async () => {
    const u = await signUp(t);
    const s = McpServer.parse((await u.client.post(M(u), { name: "slow", url: `${mcpBase}/slow/mcp` })).body);
    const running = u.client.post(`${M(u)}/${s.id}/sync`, {});
    let seen: string | undefined;
    // Polled by time, not by count: on a busy host the sync may start only after many quick reads.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      seen = McpServer.parse((await u.client.get(M(u))).body.items[0]).status;
      if (seen === "connecting" || seen === "connected") break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(seen).toBe("connecting");
    expect((await running).body.status).toBe("connected");
    expect(McpServer.parse((await u.client.get(M(u))).body.items[0]).status).toBe("connected");
  });

  it("refuses loopback, private and metadata URLs without the allow-list, before connecting", async () => {
    const u = await signUp(t);
    const allowed = t.ctx.outbound;
    t.ctx.outbound = createOutbound({ allowHosts: new Set() });
    try {
      for (const url of [
        `${mcpBase}/open/mcp`,
        "http://[::1]:3211/open/mcp",
        "http://10.0.0.1/mcp",
        "http://169.254.169.254/mcp",
        "http://[::ffff:127.0.0.1]:3211/open/mcp",
        "http://localhost:3211/open/mcp",
      ]) {
        const s = McpServer.parse((await u.client.post(M(u), { name: "x", url, timeoutMs: 2000 })).body);
        const res = await u.client.post(`${M(u)}/${s.id}/sync`, {});
        expect(res.body.error?.code, url).toBe("mcp_sync_network_error");
        expect(res.body.error.message, url).toMatch(/refused/);
      }
      // The user's address was refused: a warning with the reason, not an error with a stack.
      const refusals = logs.filter((l) => l.code === "mcp_sync_network_error");
      expect(refusals.length).toBeGreaterThanOrEqual(6);
      for (const l of refusals) {
        expect(l.level).toBe(40);
        expect(l.err).toBeUndefined();
      }
    } finally {
      await t.ctx.outbound.close();
      t.ctx.outbound = allowed;
    }
  });

  it("validates fields (§5), keeps stored secrets on edit, and is private to its author", async () => {
    const u = await signUp(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "", url: `${mcpBase}/open/mcp` }, "name"],
      [{ name: "a", url: "not a url" }, "url"],
      [{ name: "a", url: "ftp://x.example/" }, "url"],
      [{ name: "a", url: `${mcpBase}/x`, authType: "bearer" }, "token"],
      [{ name: "a", url: `${mcpBase}/x`, authType: "basic", username: "u" }, "password"],
      [{ name: "a", url: `${mcpBase}/x`, authType: "basic", password: "p" }, "username"],
      [{ name: "a", url: `${mcpBase}/x`, authType: "api_key", token: "k" }, "headerName"],
      [{ name: "a", url: `${mcpBase}/x`, timeoutMs: 10 }, "timeoutMs"],
    ];
    for (const [body, path] of cases) {
      const res = await u.client.post(M(u), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.error.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await u.client.get(M(u))).body.items).toEqual([]);

    const s = McpServer.parse(
      (await u.client.post(M(u), { name: "b", url: `${mcpBase}/bearer/mcp`, authType: "bearer", token: TOKEN })).body,
    );
    const renamed = await u.client.patch(`${M(u)}/${s.id}`, { name: "renamed", description: "kept token" });
    expect(renamed.body).toMatchObject({ name: "renamed", tokenSet: true });
    expect((await u.client.post(`${M(u)}/${s.id}/sync`, {})).body.status).toBe("connected");
    // Switching to basic without a password is refused; nothing changes.
    const bad = await u.client.patch(`${M(u)}/${s.id}`, { authType: "basic", username: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("password");

    const other = await signUp(t);
    const foreign = `/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/playground/mcp-servers/${s.id}`;
    expect((await other.client.patch(foreign, { name: "x" })).status).toBe(404);
    expect((await u.client.delete(`${M(u)}/${s.id}`)).status).toBe(200);
    expect((await u.client.get(M(u))).body.items).toEqual([]);
  });

  it("runs the three kinds of tool call of the playground loop: official, function and MCP", async () => {
    const u = await signUp(t);
    const P = `/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/playground`;
    const date = await u.client.post(`${P}/tool-calls`, {
      kind: "official",
      target: "moonshot/convert:latest",
      name: "convert",
      arguments: JSON.stringify({ value: 2, from: "km", to: "m" }),
    });
    expect(date.status, JSON.stringify(date.body)).toBe(200);
    expect(date.body.state).toBe("success");
    expect(JSON.parse(date.body.output).result).toBe(2000);

    const fn = (
      await u.client.post(`${P}/function-tools`, {
        name: "double",
        parameters: JSON.stringify({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }),
        exampleInput: '{"n":2}',
        code: "function handler(a) { return { doubled: a.n * 2 }; }",
      })
    ).body;
    const ran = await u.client.post(`${P}/tool-calls`, {
      kind: "function",
      target: fn.id,
      name: "double",
      arguments: '{"n":21}',
    });
    expect(ran.body).toMatchObject({ state: "success", output: '{"doubled":42}' });
    const loop = await u.client.post(`${P}/function-tools`, {
      name: "spin",
      parameters: '{"type":"object"}',
      exampleInput: "{}",
      code: "function handler() { while (true) {} }",
    });
    const spun = await u.client.post(`${P}/tool-calls`, {
      kind: "function",
      target: loop.body.id,
      name: "spin",
      arguments: "{}",
    });
    expect(spun.body).toMatchObject({ state: "failed" });
    expect(spun.body.output).toMatch(/ran longer than/);

    const server = McpServer.parse(
      (await u.client.post(M(u), { name: "calc", url: `${mcpBase}/bearer/mcp`, authType: "bearer", token: TOKEN }))
        .body,
    );
    const add = await u.client.post(`${P}/tool-calls`, {
      kind: "mcp",
      target: server.id,
      name: "add",
      arguments: JSON.stringify({ a: 2, b: 3 }),
    });
    expect(add.body).toMatchObject({ state: "success", output: "5" });
    const report = await u.client.post(`${P}/tool-calls`, {
      kind: "mcp",
      target: server.id,
      name: "report",
      arguments: "{}",
    });
    expect(report.body).toMatchObject({
      state: "success",
      output: "The report is ready.\n[resource_link report-42 https://files.example.com/r/42.txt text/plain]",
    });
    const badArgs = await u.client.post(`${P}/tool-calls`, {
      kind: "mcp",
      target: server.id,
      name: "add",
      arguments: '{"a":"x"}',
    });
    expect(badArgs.body.state).toBe("failed");
    await u.client.patch(`${M(u)}/${server.id}`, { enabled: false });
    const off = await u.client.post(`${P}/tool-calls`, {
      kind: "mcp",
      target: server.id,
      name: "add",
      arguments: "{}",
    });
    expect(off.body).toMatchObject({ state: "failed" });
    expect(off.body.output).toMatch(/disabled/);
    // Someone else's tool is not found.
    const other = await signUp(t);
    const foreign = await other.client.post(
      `/api/orgs/${other.orgId}/projects/${other.defaultProjectId}/playground/tool-calls`,
      { kind: "function", target: fn.id, name: "double", arguments: "{}" },
    );
    expect(foreign.status).toBe(404);
  });
});
