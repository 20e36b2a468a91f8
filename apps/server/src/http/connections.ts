/**
 * Connection hygiene against slow-loris clients: Node's timeouts reap connections that never finish their
 * headers or their request, idle keep-alive connections and silent sockets; a per-address cap stops one client
 * from holding every socket. Values come from env.ts (README "Configuration").
 */
import type { Socket } from "node:net";
import type { FastifyServerOptions } from "fastify";
import type { Config } from "../env.ts";

/** Options for Fastify (and, through `http`, for Node's http.createServer). */
export function connectionOptions(config: Config): Pick<
  FastifyServerOptions,
  "connectionTimeout" | "keepAliveTimeout" | "requestTimeout"
> & {
  http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
} {
  const h = config.http;
  return {
    // Silence in both directions. Keep it above the upstreams' response timeout: a non-streaming request that
    // waits for a slow model is silent too.
    connectionTimeout: h.idleTimeoutMs,
    keepAliveTimeout: h.keepAliveTimeoutMs,
    requestTimeout: h.requestTimeoutMs,
    http: {
      headersTimeout: h.headersTimeoutMs,
      requestTimeout: h.requestTimeoutMs,
      // Node enforces the two timeouts above on a timer (30 s by default); a fraction of the shorter one keeps
      // the reaping close to the configured value.
      connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(h.headersTimeoutMs / 4))),
    },
  };
}

/**
 * Closes a new connection when its address already holds `max` open ones (0: no cap). The count is per socket
 * address: behind a load balancer every connection comes from the balancer, so raise the cap or set 0 there.
 */
export function capConnectionsPerIp(
  server: { on(event: "connection", fn: (s: Socket) => void): unknown },
  max: number,
) {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const ip = socket.remoteAddress ?? "unknown";
    const n = open.get(ip) ?? 0;
    if (n >= max) {
      socket.destroy();
      return;
    }
    open.set(ip, n + 1);
    socket.once("close", () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left <= 0) open.delete(ip);
      else open.set(ip, left);
    });
  });
}
