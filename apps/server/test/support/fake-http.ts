/** A tiny loopback HTTP server for the payment provider fakes: raw body in, handler decides the answer. */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}
export interface FakeResponse {
  status: number;
  body: string;
  contentType?: string;
}

export async function startFakeServer(handle: (req: FakeRequest) => FakeResponse | Promise<FakeResponse>) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const u = new URL(req.url ?? "/", "http://fake");
      try {
        const out = await handle({
          method: req.method ?? "GET",
          path: u.pathname,
          query: u.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(out.status, { "content-type": out.contentType ?? "application/json" }).end(out.body);
      } catch (err) {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A fresh RSA-2048 key pair as PEM (PKCS#8 private, SPKI public). */
export async function rsaKeys() {
  const { generateKeyPairSync } = await import("node:crypto");
  return generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
}
