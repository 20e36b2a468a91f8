import http from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** The bearer token /bearer/mcp wants; /open/mcp wants none. */
export const MCP_TOKEN = "e2e-mcp-bearer-token";

/**
 * A real MCP server built with the SDK, for the browser suite (the app reaches it on loopback because the e2e
 * server allow-lists 127.0.0.1). Stateless Streamable HTTP; one tool, `shout`, that upper-cases a text.
 */
export async function startMcpServer(port: number): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    if (req.url?.startsWith("/bearer") && req.headers.authorization !== `Bearer ${MCP_TOKEN}`) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const mcp = new Server({ name: "e2e-shouter", version: "1.0.0" }, { capabilities: { tools: {} } });
    mcp.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: "shout",
          description: "Shout a text: returns the text in upper case letters",
          inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        },
      ],
    }));
    mcp.setRequestHandler(CallToolRequestSchema, async (r) => ({
      content: [{ type: "text", text: String(r.params.arguments?.text ?? "").toUpperCase() }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}
