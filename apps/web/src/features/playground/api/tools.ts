import {
  type CreateMcpServerRequest,
  FunctionTool,
  type FunctionToolInput,
  FunctionToolList,
  McpServer,
  McpServerList,
  OfficialToolList,
  OkResponse,
  type PlaygroundToolCallRequest,
  type TestRunFunctionToolRequest,
  ToolRunResult,
  type UpdateFunctionToolRequest,
  type UpdateMcpServerRequest,
} from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { useInvalidatingMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { playgroundApi, playgroundKeys } from "./query-keys.ts";

/**
 * The tools of the playground: official tools, the caller's custom function tools and MCP servers,
 * and one step of the tool loop. One function per request.
 */

/** GET …/playground/official-tools */
export const officialToolsQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: playgroundKeys.officialTools(orgId, projectId),
    queryFn: () => api(`${playgroundApi(orgId, projectId)}/official-tools`, { schema: OfficialToolList }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** GET …/playground/function-tools */
export const functionToolsQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: playgroundKeys.functionTools(orgId, projectId),
    queryFn: () => api(`${playgroundApi(orgId, projectId)}/function-tools`, { schema: FunctionToolList }),
  });

/** POST …/function-tools, or PATCH …/function-tools/:id with `id`. */
export const useSaveFunctionTool = (orgId: string, projectId: string) =>
  useInvalidatingMutation(
    playgroundKeys.functionTools(orgId, projectId),
    (v: { id?: string; body: FunctionToolInput | UpdateFunctionToolRequest }) =>
      api(`${playgroundApi(orgId, projectId)}/function-tools${v.id ? `/${encodeURIComponent(v.id)}` : ""}`, {
        method: v.id ? "PATCH" : "POST",
        body: v.body,
        schema: FunctionTool,
      }),
  );

/** DELETE …/function-tools/:id */
export const useDeleteFunctionTool = (orgId: string, projectId: string) =>
  useInvalidatingMutation(playgroundKeys.functionTools(orgId, projectId), (id: string) =>
    api(`${playgroundApi(orgId, projectId)}/function-tools/${encodeURIComponent(id)}`, {
      method: "DELETE",
      schema: OkResponse,
    }),
  );

/** POST …/function-tools/test-run: the editor's current text, saved or not. */
export const testRunFunctionTool = (orgId: string, projectId: string, body: TestRunFunctionToolRequest) =>
  api(`${playgroundApi(orgId, projectId)}/function-tools/test-run`, { body, schema: ToolRunResult });

/** GET …/playground/mcp-servers */
export const mcpServersQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: playgroundKeys.mcpServers(orgId, projectId),
    queryFn: () => api(`${playgroundApi(orgId, projectId)}/mcp-servers`, { schema: McpServerList }),
  });

/** POST …/mcp-servers, or PATCH …/mcp-servers/:id with `id`. */
export const useSaveMcpServer = (orgId: string, projectId: string) =>
  useInvalidatingMutation(
    playgroundKeys.mcpServers(orgId, projectId),
    (v: { id?: string; body: CreateMcpServerRequest | UpdateMcpServerRequest }) =>
      api(`${playgroundApi(orgId, projectId)}/mcp-servers${v.id ? `/${encodeURIComponent(v.id)}` : ""}`, {
        method: v.id ? "PATCH" : "POST",
        body: v.body,
        schema: McpServer,
      }),
  );

/** DELETE …/mcp-servers/:id */
export const useDeleteMcpServer = (orgId: string, projectId: string) =>
  useInvalidatingMutation(playgroundKeys.mcpServers(orgId, projectId), (id: string) =>
    api(`${playgroundApi(orgId, projectId)}/mcp-servers/${encodeURIComponent(id)}`, {
      method: "DELETE",
      schema: OkResponse,
    }),
  );

/** POST …/mcp-servers/:id/sync: connects and reads the tool list; a failure is the §8 message. */
export const useSyncMcpServer = (orgId: string, projectId: string) =>
  useInvalidatingMutation(playgroundKeys.mcpServers(orgId, projectId), (id: string) =>
    api(`${playgroundApi(orgId, projectId)}/mcp-servers/${encodeURIComponent(id)}/sync`, {
      body: {},
      schema: McpServer,
    }),
  );

/** POST …/playground/tool-calls: one step of the tool loop. */
export const runToolCall = (orgId: string, projectId: string, body: PlaygroundToolCallRequest, signal?: AbortSignal) =>
  api(`${playgroundApi(orgId, projectId)}/tool-calls`, { body, schema: ToolRunResult, signal });
