import {
  CreateMcpServerRequest,
  FunctionTool,
  FunctionToolInput,
  FunctionToolList,
  FunctionToolParams,
  McpServer,
  McpServerList,
  McpServerParams,
  OfficialToolList,
  OkResponse,
  PlaygroundToolCallRequest,
  ProjectParams,
  TestRunFunctionToolRequest,
  ToolRunResult,
  UpdateFunctionToolRequest,
  UpdateMcpServerRequest,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess, projectAccess } from "../../http/route.ts";
import { createFunctionTool } from "./create-function-tool.ts";
import { createMcpServer } from "./create-mcp-server.ts";
import { deleteFunctionTool } from "./delete-function-tool.ts";
import { deleteMcpServer } from "./delete-mcp-server.ts";
import { listFunctionTools } from "./list-function-tools.ts";
import { listMcpServers } from "./list-mcp-servers.ts";
import { listOfficialTools } from "./list-official-tools.ts";
import { runPlaygroundToolCall } from "./run-playground-tool-call.ts";
import { syncMcpServer } from "./sync-mcp-server.ts";
import { testRunFunctionTool } from "./test-run-function-tool.ts";
import { updateFunctionTool } from "./update-function-tool.ts";
import { updateMcpServer } from "./update-mcp-server.ts";

const OWN = "only the caller's own function tools";
const OWN_MCP = "only the caller's own MCP servers";

/** Custom function tools of the playground (docs/product-spec.md §3, §5): private to their author in the project. */
export default async function toolRoutes(app: App, ctx: AppContext) {
  const base = "/orgs/:orgId/projects/:projectId/playground/function-tools";

  app.get(
    base,
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: { params: ProjectParams, response: { 200: FunctionToolList } },
    },
    async (req) => listFunctionTools({ ctx, access: orgAccess(req), project: projectAccess(req) }),
  );

  app.post(
    base,
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: { params: ProjectParams, body: FunctionToolInput, response: { 201: FunctionTool } },
    },
    async (req, reply) => {
      const tool = await createFunctionTool({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        tool: { ...req.body, description: req.body.description ?? "" },
      });
      reply.status(201);
      return tool;
    },
  );

  // Test-runs the editor's current text, saved or not; it changes nothing.
  app.post(
    `${base}/test-run`,
    {
      config: { access: "projectMember" },
      schema: { params: ProjectParams, body: TestRunFunctionToolRequest, response: { 200: ToolRunResult } },
    },
    async (req) => testRunFunctionTool({ ctx, access: orgAccess(req), project: projectAccess(req), draft: req.body }),
  );

  app.patch(
    `${base}/:toolId`,
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: { params: FunctionToolParams, body: UpdateFunctionToolRequest, response: { 200: FunctionTool } },
    },
    async (req) =>
      updateFunctionTool({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        toolId: req.params.toolId,
        changes: req.body,
      }),
  );

  app.delete(
    `${base}/:toolId`,
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: { params: FunctionToolParams, response: { 200: OkResponse } },
    },
    async (req) =>
      deleteFunctionTool({ ctx, access: orgAccess(req), project: projectAccess(req), toolId: req.params.toolId }),
  );

  // MCP servers: private to their author; credentials go in, only "is it set" comes out.
  const mcp = "/orgs/:orgId/projects/:projectId/playground/mcp-servers";

  app.get(
    mcp,
    {
      config: { access: "projectMember", objectRule: OWN_MCP },
      schema: { params: ProjectParams, response: { 200: McpServerList } },
    },
    async (req) => listMcpServers({ ctx, access: orgAccess(req), project: projectAccess(req) }),
  );

  app.post(
    mcp,
    {
      config: { access: "projectMember", objectRule: OWN_MCP },
      schema: { params: ProjectParams, body: CreateMcpServerRequest, response: { 201: McpServer } },
    },
    async (req, reply) => {
      const b = req.body;
      const server = await createMcpServer({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        server: {
          ...b,
          description: b.description ?? "",
          transport: b.transport ?? "streamable_http",
          authType: b.authType ?? "none",
          timeoutMs: b.timeoutMs ?? 30_000,
          enabled: b.enabled ?? true,
        },
      });
      reply.status(201);
      return server;
    },
  );

  app.patch(
    `${mcp}/:serverId`,
    {
      config: { access: "projectMember", objectRule: OWN_MCP },
      schema: { params: McpServerParams, body: UpdateMcpServerRequest, response: { 200: McpServer } },
    },
    async (req) =>
      updateMcpServer({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        serverId: req.params.serverId,
        changes: req.body,
      }),
  );

  app.delete(
    `${mcp}/:serverId`,
    {
      config: { access: "projectMember", objectRule: OWN_MCP },
      schema: { params: McpServerParams, response: { 200: OkResponse } },
    },
    async (req) =>
      deleteMcpServer({ ctx, access: orgAccess(req), project: projectAccess(req), serverId: req.params.serverId }),
  );

  // Connects and reads the tool list; the §8 messages when it cannot (the status says error, with the reason).
  app.post(
    `${mcp}/:serverId/sync`,
    {
      config: { access: "projectMember", objectRule: OWN_MCP },
      schema: { params: McpServerParams, response: { 200: McpServer } },
    },
    async (req) =>
      syncMcpServer({ ctx, access: orgAccess(req), project: projectAccess(req), serverId: req.params.serverId }),
  );

  // The official tools of the picker (the same definitions as GET /v1/formulas/{uri}/tools).
  app.get(
    "/orgs/:orgId/projects/:projectId/playground/official-tools",
    { config: { access: "projectMember" }, schema: { params: ProjectParams, response: { 200: OfficialToolList } } },
    async () => listOfficialTools(),
  );

  // One step of the playground's tool loop: run a tool call the model made and answer the tool message's content.
  app.post(
    "/orgs/:orgId/projects/:projectId/playground/tool-calls",
    {
      config: { access: "projectMember", objectRule: "only the caller's own function tools and MCP servers" },
      schema: { params: ProjectParams, body: PlaygroundToolCallRequest, response: { 200: ToolRunResult } },
    },
    async (req) => runPlaygroundToolCall({ ctx, access: orgAccess(req), project: projectAccess(req), call: req.body }),
  );
}
