/**
 * The SSRF guard of every tool's outbound call (tools/outbound.ts): with no allow-list, loopback, private,
 * link-local, metadata and IPv4-mapped addresses, a name resolving to loopback and a redirect to loopback are all
 * refused before a single byte reaches them (a trap server counts connections); the allow-list admits a host.
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbound, isForbiddenAddress, OutboundRefused } from "../src/tools/outbound.ts";

let trap: net.Server;
let trapPort: number;
let trapConnections = 0;
let web: http.Server;
let webPort: number;

beforeAll(async () => {
  trap = net.createServer((socket) => {
    trapConnections++;
    socket.destroy();
  });
  await new Promise<void>((r) => trap.listen(0, "127.0.0.1", r));
  trapPort = (trap.address() as AddressInfo).port;
  web = http.createServer((req, res) => {
    if (req.url === "/to-loopback") {
      res.writeHead(302, { location: `http://127.0.0.1:${trapPort}/secret` }).end();
    } else if (req.url === "/to-mapped") {
      res.writeHead(301, { location: `http://[::ffff:127.0.0.1]:${trapPort}/` }).end();
    } else if (req.url === "/big") {
      res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(50_000));
    } else {
      res.writeHead(200, { "content-type": "text/plain" }).end("hello from the allowed host");
    }
  });
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  webPort = (web.address() as AddressInfo).port;
});
afterAll(async () => {
  trap.close();
  web.close();
});

/** A resolver for names the tests control: `loopback.test` → 127.0.0.1, `web.test` → 127.0.0.1 (allow-listed). */
const resolve = (
  host: string,
  _o: unknown,
  cb: (err: NodeJS.ErrnoException | null, a: { address: string; family: number }[]) => void,
) => {
  if (host === "loopback.test" || host === "web.test") cb(null, [{ address: "127.0.0.1", family: 4 }]);
  else if (host === "mixed.test")
    cb(null, [
      { address: "93.184.216.34", family: 4 },
      { address: "::1", family: 6 },
    ]);
  else cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }), []);
};

describe("isForbiddenAddress", () => {
  it("refuses every private, local, reserved and metadata form and admits public addresses", () => {
    const forbidden = [
      "127.0.0.1",
      "127.1.2.3",
      "0.0.0.0",
      "10.0.0.1",
      "172.16.5.4",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:169.254.169.254",
      "::127.0.0.1",
      "64:ff9b::7f00:1",
      "2002:7f00:1::",
      "fe80::1",
      "fc00::1",
      "fd00:ec2::254",
      "ff02::1",
      "not-an-ip",
    ];
    for (const ip of forbidden) expect(isForbiddenAddress(ip), ip).toBe(true);
    for (const ip of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      expect(isForbiddenAddress(ip), ip).toBe(false);
  });
});

describe("guarded requests", () => {
  const guarded = createOutbound({ allowHosts: new Set(), resolve });

  it("refuses loopback, private, link-local, metadata and mapped targets before sending a byte", async () => {
    const targets = [
      `http://127.0.0.1:${trapPort}/`,
      `http://[::1]:${trapPort}/`,
      `http://10.0.0.1:${trapPort}/`,
      "http://169.254.169.254/latest/meta-data/",
      `http://[::ffff:127.0.0.1]:${trapPort}/`,
      `http://localhost:${trapPort}/`,
      `http://loopback.test:${trapPort}/`,
      `http://mixed.test:${trapPort}/`,
      `http://2130706433:${trapPort}/`,
      `http://0x7f.0.0.1:${trapPort}/`,
      "file:///etc/passwd",
      `http://user:pw@example.com/`,
    ];
    for (const url of targets) {
      await expect(guarded.request(url, { timeoutMs: 3000 }), url).rejects.toBeInstanceOf(OutboundRefused);
    }
    expect(trapConnections).toBe(0);
  });

  it("refuses a redirect to loopback from an allowed host, and a redirect to a mapped address", async () => {
    const allowWeb = createOutbound({ allowHosts: new Set(["web.test"]), resolve });
    await expect(allowWeb.request(`http://web.test:${webPort}/to-loopback`)).rejects.toThrow(
      /127\.0\.0\.1 is a private/,
    );
    await expect(allowWeb.request(`http://web.test:${webPort}/to-mapped`)).rejects.toBeInstanceOf(OutboundRefused);
    expect(trapConnections).toBe(0);
    await allowWeb.close();
  });

  it("admits an allow-listed host and caps the response size", async () => {
    const allow = createOutbound({ allowHosts: new Set(["127.0.0.1"]), resolve });
    const ok = await allow.request(`http://127.0.0.1:${webPort}/`);
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toBe("hello from the allowed host");
    const big = await allow.request(`http://127.0.0.1:${webPort}/big`, { maxBytes: 1000 });
    expect(big.truncated).toBe(true);
    expect(big.body.length).toBe(1000);
    await allow.close();
  });
});
