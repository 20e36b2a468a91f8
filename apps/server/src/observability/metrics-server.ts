/**
 * The Prometheus scrape endpoint on its own listener (METRICS_HOST:METRICS_PORT, loopback by default), apart
 * from the public port: a load balancer or the internet never reaches it unless an operator binds it wider, and
 * METRICS_TOKEN then demands `Authorization: Bearer <token>`. GET /metrics only.
 */
import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "../env.ts";
import type { Metrics } from "./metrics.ts";

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function startMetricsServer(
  metrics: Metrics,
  config: Config["metrics"] & { port: number },
  log: { error(obj: object, msg: string): void },
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found: scrape /metrics\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("method not allowed\n");
      return;
    }
    if (config.token && !tokenMatches(req.headers.authorization, config.token)) {
      res.writeHead(401, { "www-authenticate": "Bearer", "content-type": "text/plain" }).end("unauthorized\n");
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => res.writeHead(200, { "content-type": contentType }).end(body),
      (err) => {
        log.error({ err }, "metrics scrape failed");
        res.writeHead(500, { "content-type": "text/plain" }).end("scrape failed\n");
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
