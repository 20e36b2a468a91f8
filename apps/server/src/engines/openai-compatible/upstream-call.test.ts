/**
 * The dispatch handler against a real HTTP server: whole bodies, UTF-8 split across reads, a consumer slower
 * than the upstream (the socket pauses and resumes), cancellation, and a timeout before the headers.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callUpstream } from "./upstream-call.ts";

let server: http.Server;
let pool: Pool;
let slowPool: Pool;
const closedEarly: string[] = [];
const TEXT = "月之暗面 says hello — ünïcödé ".repeat(40);

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    for await (const _ of req) {
      // read the body
    }
    res.on("close", () => {
      if (!res.writableFinished) closedEarly.push(req.url ?? "");
    });
    if (req.url === "/whole") {
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ text: TEXT }));
    } else if (req.url === "/split") {
      // Every read ends inside a multi-byte character.
      const bytes = Buffer.from(TEXT);
      res.writeHead(200);
      for (let i = 0; i < bytes.length; i += 7) {
        res.write(bytes.subarray(i, i + 7));
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    } else if (req.url === "/bom") {
      // A byte-order mark split across the first two reads, then invalid UTF-8.
      res.writeHead(200);
      res.write(Buffer.from([0xef, 0xbb]));
      await new Promise((r) => setImmediate(r));
      res.end(Buffer.concat([Buffer.from([0xbf]), Buffer.from('{"a":1}'), Buffer.from([0xff])]));
    } else if (req.url === "/many") {
      res.writeHead(200);
      for (let i = 0; i < 400; i++) res.write(`${i}\n`);
      res.end();
    } else if (req.url === "/endless") {
      res.writeHead(200);
      const timer = setInterval(() => res.write("tick\n"), 5);
      res.on("close", () => clearInterval(timer));
    } else if (req.url === "/silent") {
      // never answers
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pool = new Pool(origin, { connections: 4 });
  slowPool = new Pool(origin, { connections: 1, headersTimeout: 200 });
});
afterAll(async () => {
  await pool.close();
  await slowPool.destroy();
  server.closeAllConnections();
  server.close();
});

const call = (path: string, signal = new AbortController().signal, p = pool) =>
  callUpstream(p, { path, headers: { "content-type": "application/json" }, body: "{}", signal });

describe("callUpstream", () => {
  it("returns the status and the whole body", async () => {
    const res = await call("/whole");
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(await res.text())).toEqual({ text: TEXT });
  });

  it("keeps characters whole when a read ends inside one", async () => {
    const res = await call("/split");
    let out = "";
    let reads = 0;
    for await (const c of res.chunks) {
      out += c;
      reads++;
    }
    expect(out).toBe(TEXT);
    expect(reads).toBeGreaterThan(10);
  });

  it("drops a leading byte-order mark and replaces invalid bytes, as a TextDecoder would", async () => {
    const res = await call("/bom");
    expect(await res.text()).toBe('{"a":1}\uFFFD');
  });

  it("delivers every chunk in order to a consumer slower than the upstream", async () => {
    const res = await call("/many");
    let out = "";
    for await (const c of res.chunks) {
      out += c;
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(out).toBe(Array.from({ length: 400 }, (_, i) => `${i}\n`).join(""));
  });

  it("aborts the request when the signal fires mid-body", async () => {
    const abort = new AbortController();
    const res = await call("/endless", abort.signal);
    const it = res.chunks[Symbol.asyncIterator]();
    expect((await it.next()).done).toBe(false);
    abort.abort(new Error("client went away"));
    let error: unknown;
    try {
      for (let r = await it.next(); !r.done; r = await it.next()) {
        // chunks already queued
      }
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toBe("client went away");
    await expect.poll(() => closedEarly.includes("/endless")).toBe(true);
  });

  it("rejects an aborted signal at once and a silent upstream after the headers timeout", async () => {
    const abort = new AbortController();
    abort.abort(new Error("already gone"));
    await expect(call("/whole", abort.signal)).rejects.toThrow("already gone");
    await expect(call("/silent", new AbortController().signal, slowPool)).rejects.toMatchObject({
      code: "UND_ERR_HEADERS_TIMEOUT",
    });
  });
});
