/**
 * The MCP client of the playground: the official SDK, run server-side, every HTTP request through
 * the SSRF guard (`outbound.fetch`). Streamable HTTP first; when the server does not speak it (a 4xx other than
 * 401/403 on the first POST, or a transport failure that is not a refusal), the legacy HTTP+SSE transport.
 * A fresh connection per operation: the playground calls a tool rarely, and nothing stateful is kept between calls.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type Outbound, OutboundRefused, refusalOf } from "./outbound.ts";

export interface McpEndpoint {
  url: string;
  transport: "streamable_http" | "sse";
  /** Authentication headers, already built from the decrypted credentials. */
  headers: Record<string, string>;
  timeoutMs: number;
}

export type McpFailureKind = "unauthorized" | "server_error" | "network_error";

export class McpFailure extends Error {
  constructor(
    readonly kind: McpFailureKind,
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
    this.name = "McpFailure";
  }
}

/** The HTTP status an SDK error carries, if any (StreamableHTTPError, SseError). */
function statusOf(e: unknown): number | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "number" && code >= 100 && code < 600) return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Sorts any failure into the three §8 messages: unauthorized, server error, network error. */
export function classifyMcpError(e: unknown): McpFailure {
  if (e instanceof McpFailure) return e;
  const refused = refusalOf(e);
  if (refused) return new McpFailure("network_error", `refused: ${refused.reason}`);
  const status = statusOf(e);
  const message = e instanceof Error ? e.message : String(e);
  if (status === 401 || status === 403 || (e as Error)?.name === "UnauthorizedError") {
    return new McpFailure("unauthorized", `HTTP ${status ?? 401}`);
  }
  if (status !== undefined) return new McpFailure("server_error", `HTTP ${status}`);
  // JSON-RPC errors from the server (McpError has a negative numeric code) are the server's own errors.
  const rpc = (e as { code?: unknown })?.code;
  if (typeof rpc === "number" && rpc < 0) {
    if (/timed out/i.test(message)) return new McpFailure("network_error", "no answer in time");
    return new McpFailure("server_error", message.slice(0, 300));
  }
  return new McpFailure("network_error", message.slice(0, 300));
}

function transportFor(kind: "streamable_http" | "sse", endpoint: McpEndpoint, outbound: Outbound): Transport {
  const url = new URL(endpoint.url);
  const requestInit = { headers: endpoint.headers };
  const fetch = outbound.fetch as never;
  return kind === "sse"
    ? new SSEClientTransport(url, { requestInit, fetch, eventSourceInit: { fetch } as never })
    : new StreamableHTTPClientTransport(url, { requestInit, fetch });
}

async function connect(endpoint: McpEndpoint, outbound: Outbound): Promise<Client> {
  const attempt = async (kind: "streamable_http" | "sse") => {
    const client = new Client({ name: "moonport-playground", version: "1.0.0" });
    try {
      await client.connect(transportFor(kind, endpoint, outbound), { timeout: endpoint.timeoutMs });
      return client;
    } catch (e) {
      await client.close().catch(() => {});
      throw e;
    }
  };
  if (endpoint.transport === "sse") return attempt("sse");
  try {
    return await attempt("streamable_http");
  } catch (e) {
    const failure = classifyMcpError(e);
    const status = statusOf(e);
    // Refusals and bad credentials are final; a server without the Streamable HTTP endpoint gets the SSE try.
    if (e instanceof OutboundRefused || refusalOf(e) || failure.kind === "unauthorized") throw failure;
    if (status !== undefined && status >= 500) throw failure;
    try {
      return await attempt("sse");
    } catch {
      throw failure;
    }
  }
}

async function withClient<T>(endpoint: McpEndpoint, outbound: Outbound, fn: (c: Client) => Promise<T>): Promise<T> {
  let client: Client | undefined;
  try {
    client = await connect(endpoint, outbound);
    return await fn(client);
  } catch (e) {
    throw classifyMcpError(e);
  } finally {
    await client?.close().catch(() => {});
  }
}

export interface McpToolDescription {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Connects and reads the server's whole tool list (following pagination, at most 10 pages). */
export async function listMcpTools(endpoint: McpEndpoint, outbound: Outbound): Promise<McpToolDescription[]> {
  return withClient(endpoint, outbound, async (client) => {
    const tools: McpToolDescription[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await client.listTools(cursor ? { cursor } : {}, { timeout: endpoint.timeoutMs });
      for (const t of res.tools) {
        tools.push({
          name: t.name,
          description: t.description ?? "",
          inputSchema: t.inputSchema as Record<string, unknown>,
        });
      }
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return tools;
  });
}

interface McpContentPart {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/**
 * A result part as text for the model: text as it is; a link or an embedded resource with what lets the model
 * refer to it (its name and URI, an embedded text itself); images and audio by their type only.
 */
function describePart(p: McpContentPart): string {
  const mime = p.mimeType ? ` ${p.mimeType}` : "";
  if (p.type === "text") return p.text ?? "";
  if (p.type === "resource_link") return `[resource_link ${p.name ?? ""} ${p.uri ?? ""}${mime}]`;
  if (p.type === "resource" && p.resource) {
    if (typeof p.resource.text === "string") return p.resource.text;
    const rmime = p.resource.mimeType ? ` ${p.resource.mimeType}` : "";
    return `[resource ${p.resource.uri ?? ""}${rmime}]`;
  }
  return `[${p.type}${mime}]`;
}

/** Calls one tool; the result's text parts joined (other parts described), and whether the server said it failed. */
export async function callMcpTool(
  endpoint: McpEndpoint,
  outbound: Outbound,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; output: string }> {
  return withClient(endpoint, outbound, async (client) => {
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: endpoint.timeoutMs });
    const parts = (res.content as McpContentPart[] | undefined) ?? [];
    const text = parts.map(describePart).join("\n");
    const structured = (res as { structuredContent?: unknown }).structuredContent;
    return {
      isError: res.isError === true,
      output: text || (structured !== undefined ? JSON.stringify(structured) : ""),
    };
  });
}
