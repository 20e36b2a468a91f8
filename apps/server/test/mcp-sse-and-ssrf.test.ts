/**
 * Two gaps of the MCP work, against real servers on loopback: (1) a server built with the SDK that speaks only
 * the legacy HTTP+SSE transport — configured as `sse`, and as `streamable_http`, which must fall back to SSE —
 * synced and called from the playground's tool loop; (2) the SSRF guard on MCP URLs and fetch targets seen from
 * the playground: every forbidden form and a redirect to loopback are refused before a byte reaches the target
 * (the targets count their connections).
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { McpServer as SdkMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { McpServer, ToolRunResult } from "@moonport/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOutbound } from "../src/tools/outbound.ts";
import { signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
let legacy: http.Server;
let legacyPort: number;
let trap: net.Server;
let trapPort: number;
let trapConnections = 0;
let redirector: http.Server;
let redirectorPort: number;

/** The SDK's legacy transport: GET /sse opens the event stream, POST /messages?sessionId=… carries requests. */
async function startLegacyServer() {
  const sessions = new Map<string, SSEServerTransport>();
  legacy = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      const server = new SdkMcpServer({ name: "legacy-sse", version: "1.0.0" });
      server.registerTool(
        "moon_phase",
        { description: "The moon's phase on a day", inputSchema: { day: z.string() } },
        async ({ day }) => ({ content: [{ type: "text", text: `full moon on ${day}` }] }),
      );
      res.on("close", () => {
        sessions.delete(transport.sessionId);
        void server.close();
      });
      await server.connect(transport);
      return;
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) return void res.writeHead(404).end("no session");
      await transport.handlePostMessage(req, res);
      return;
    }
    // No Streamable HTTP here: a POST to /sse is not understood.
    res.writeHead(405, { allow: "GET" }).end("method not allowed");
  });
  await new Promise<void>((r) => legacy.listen(0, "127.0.0.1", r));
  legacyPort = (legacy.address() as AddressInfo).port;
}

beforeAll(async () => {
  await startLegacyServer();
  trap = net.createServer((socket) => {
    trapConnections++;
    socket.destroy();
  });
  await new Promise<void>((r) => trap.listen(0, "127.0.0.1", r));
  trapPort = (trap.address() as AddressInfo).port;
  redirector = http.createServer((_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${trapPort}/mcp` }).end();
  });
  await new Promise<void>((r) => redirector.listen(0, "127.0.0.1", r));
  redirectorPort = (redirector.address() as AddressInfo).port;
  t = await createTestApp({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1" });
});
afterAll(async () => {
  legacy.closeAllConnections();
  legacy.close();
  trap.close();
  redirector.close();
  await t.close();
});

const M = (u: TestUser) => `/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/playground/mcp-servers`;
const CALLS = (u: TestUser) => `/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/playground/tool-calls`;

describe("an MCP server that speaks only the legacy SSE transport", () => {
  for (const transport of ["sse", "streamable_http"] as const) {
    it(`connects, syncs and calls its tool when configured as ${transport}`, async () => {
      const u = await signUp(t);
      const created = await u.client.post(M(u), {
        name: `legacy ${transport}`,
        url: `http://127.0.0.1:${legacyPort}/sse`,
        transport,
        timeoutMs: 5000,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const s = McpServer.parse(created.body);
      const synced = await u.client.post(`${M(u)}/${s.id}/sync`, {});
      expect(synced.status, JSON.stringify(synced.body)).toBe(200);
      expect(McpServer.parse(synced.body)).toMatchObject({ status: "connected", tools: [{ name: "moon_phase" }] });
      const call = await u.client.post(CALLS(u), {
        kind: "mcp",
        target: s.id,
        name: "moon_phase",
        arguments: JSON.stringify({ day: "2026-11-25" }),
      });
      expect(call.status).toBe(200);
      expect(ToolRunResult.parse(call.body)).toMatchObject({ state: "success", output: "full moon on 2026-11-25" });
    }, 20_000);
  }
});

/** A resolver for the tests' names: `web.test` (allow-listed) and `loopback.test` both → 127.0.0.1. */
const resolve = (
  host: string,
  _o: unknown,
  cb: (err: NodeJS.ErrnoException | null, a: { address: string; family: number }[]) => void,
) => {
  if (host === "web.test" || host === "loopback.test") cb(null, [{ address: "127.0.0.1", family: 4 }]);
  else cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }), []);
};

describe("the SSRF guard, seen from the playground", () => {
  const forbidden = () => [
    `http://127.0.0.1:${trapPort}/mcp`,
    `http://[::1]:${trapPort}/mcp`,
    "http://10.0.0.1/mcp",
    "http://169.254.169.254/latest/meta-data/",
    `http://[::ffff:127.0.0.1]:${trapPort}/mcp`,
    `http://loopback.test:${trapPort}/mcp`,
    `http://localhost:${trapPort}/mcp`,
    // web.test is admitted, but it redirects to the trap on loopback.
    `http://web.test:${redirectorPort}/mcp`,
  ];

  async function withGuard<T>(fn: () => Promise<T>): Promise<T> {
    const allowed = t.ctx.outbound;
    t.ctx.outbound = createOutbound({ allowHosts: new Set(["web.test"]), resolve });
    try {
      return await fn();
    } finally {
      await t.ctx.outbound.close();
      t.ctx.outbound = allowed;
    }
  }

  it("refuses MCP URLs at private addresses, names resolving to loopback and redirects to loopback", async () => {
    const u = await signUp(t);
    const before = trapConnections;
    await withGuard(async () => {
      for (const url of forbidden()) {
        const s = McpServer.parse((await u.client.post(M(u), { name: "x", url, timeoutMs: 2000 })).body);
        const res = await u.client.post(`${M(u)}/${s.id}/sync`, {});
        expect(res.body.error?.code, url).toBe("mcp_sync_network_error");
        expect(res.body.error.message, url).toMatch(/refused/);
        await u.client.delete(`${M(u)}/${s.id}`);
      }
    });
    expect(trapConnections - before).toBe(0);
  }, 30_000);

  it("refuses the same targets for the fetch tool, before a byte is sent", async () => {
    const u = await signUp(t);
    const before = trapConnections;
    await withGuard(async () => {
      for (const url of forbidden()) {
        const res = await u.client.post(CALLS(u), {
          kind: "official",
          target: "moonshot/fetch",
          name: "fetch",
          arguments: JSON.stringify({ url }),
        });
        expect(res.status, url).toBe(200);
        expect(ToolRunResult.parse(res.body), url).toMatchObject({ state: "failed" });
        expect(res.body.output, url).toMatch(/refused/);
      }
    });
    expect(trapConnections - before).toBe(0);
  }, 30_000);
});
