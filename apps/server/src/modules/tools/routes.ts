import {
  FunctionTool,
  FunctionToolInput,
  FunctionToolList,
  FunctionToolParams,
  OkResponse,
  ProjectParams,
  TestRunFunctionToolRequest,
  ToolRunResult,
  UpdateFunctionToolRequest,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess, projectAccess } from "../../http/route.ts";
import { createFunctionTool } from "./create-function-tool.ts";
import { deleteFunctionTool } from "./delete-function-tool.ts";
import { listFunctionTools } from "./list-function-tools.ts";
import { testRunFunctionTool } from "./test-run-function-tool.ts";
import { updateFunctionTool } from "./update-function-tool.ts";

const OWN = "only the caller's own function tools";

/** Custom function tools of the playground (issue 15 §2): private to their author in the project. */
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
    async (req) => testRunFunctionTool({ project: projectAccess(req), draft: req.body }),
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
}
