/**
 * /v1 answers that happen before the gateway plugin runs: Fastify's framework errors (bad percent-encoding, a
 * path parameter over the length limit) and Node's HTTP parser errors (headers or URL over maxHeaderSize,
 * request timeouts, malformed requests). Without these they would get Fastify's or Node's own bodies; with them
 * every /v1 answer is the docs/api-compat.md §3 envelope. app.ts installs them; other paths keep their usual handling.
 */
import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { gatewayErrors } from "../chat/errors.ts";

/** `/v1`, also with doubled slashes (`//v1//chat/completions`) that a proxy might pass through. */
const GATEWAY_PATH = /^\/+v1(?:[/?#]|$)/;

function isGatewayUrl(url: string | undefined): boolean {
  return url !== undefined && GATEWAY_PATH.test(url);
}

/**
 * `//v1//chat/completions` → `/v1/chat/completions` (as nginx's merge_slashes does in front of the original API),
 * so a client with a trailing slash in its base URL reaches the route. Only /v1 paths are touched.
 */
export function collapseGatewaySlashes(req: IncomingMessage): string {
  const url = req.url ?? "/";
  // Every request passes here: one without a doubled slash anywhere has nothing to collapse (no regex runs).
  if (!url.includes("//") || !isGatewayUrl(url)) return url;
  const q = url.search(/[?#]/);
  const path = q === -1 ? url : url.slice(0, q);
  return path.replace(/\/{2,}/g, "/") + (q === -1 ? "" : url.slice(q));
}

/** Fastify's framework errors for /v1 URLs; `fallback` answers every other URL as before. */
export function gatewayFrameworkError(
  err: FastifyError,
  req: FastifyRequest,
  reply: FastifyReply,
  fallback: (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => unknown,
) {
  if (!isGatewayUrl(req.raw.url)) return fallback(err, req, reply);
  const g =
    err.code === "FST_ERR_BAD_URL"
      ? gatewayErrors.badUrl()
      : err.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? gatewayErrors.urlTooLong()
        : gatewayErrors.invalidRequest("the request could not be routed");
  reply.header("msh-request-id", req.id).header("x-request-id", req.id);
  return reply.status(g.status).send(g.toBody());
}

/** The start of the failed request, if the parser's buffer still holds it. */
function requestLineOf(err: { rawPacket?: unknown }): string {
  return Buffer.isBuffer(err.rawPacket) ? err.rawPacket.subarray(0, 64).toString("latin1") : "";
}

/** What Fastify's default clientError handler says, kept for paths outside /v1. */
const FASTIFY_MESSAGES: Record<number, string> = {
  400: "Client Error",
  408: "Client Timeout",
  431: "Exceeded maximum allowed HTTP header size",
};

function rawResponse(status: number, body: string): string {
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/**
 * Node's `clientError` for the whole server: /v1 requests get the §3 envelope, anything else the body Fastify's
 * default handler sends. The connection is closed either way (the parser cannot continue).
 */
export function handleClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const g =
    err.code === "HPE_HEADER_OVERFLOW"
      ? gatewayErrors.headersTooLarge()
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? gatewayErrors.requestTimeout()
        : gatewayErrors.malformedHttp();
  const gateway = /^[A-Z]+ \/+v1(?:[/? ]|$)/.test(requestLineOf(err));
  const body = gateway
    ? JSON.stringify(g.toBody())
    : JSON.stringify({ error: STATUS_CODES[g.status], message: FASTIFY_MESSAGES[g.status], statusCode: g.status });
  if (socket.writable) socket.end(rawResponse(g.status, body));
  else socket.destroy();
}
