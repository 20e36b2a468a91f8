/**
 * Official tools for API users (docs/api-compat.md §9), registered inside the gateway plugin (v1/routes.ts): the key
 * is checked before the body is read and refusals are §3 envelopes.
 *   GET  /v1/formulas/{owner}/{name}:latest/tools   → {tools: [OpenAI function definitions]}
 *   POST /v1/formulas/{owner}/{name}:latest/fibers  {name, arguments} → {status, context: {output} | error}
 */
import type { FastifyRequest } from "fastify";
import { GatewayError, gatewayErrors } from "../../chat/errors.ts";
import type { AppContext } from "../../context.ts";
import type { App } from "../../http/route.ts";
import type { KeyIdentity } from "../../metering/pipeline.ts";
import { findFormula, formulaTools } from "./official/catalog.ts";
import { runOfficialTool } from "./run-official-tool.ts";

type Params = { owner: string; formula: string };

function formulaOf(params: Params) {
  const uri = `${params.owner}/${params.formula}`;
  const f = findFormula(uri);
  if (!f) throw new GatewayError(404, "resource_not_found_error", `Formula not found: ${uri}`);
  return f;
}

export default async function formulaV1Routes(
  app: App,
  opts: { ctx: AppContext; keyOf: (req: FastifyRequest) => KeyIdentity },
) {
  const { ctx, keyOf } = opts;

  app.get<{ Params: Params }>("/formulas/:owner/:formula/tools", async (req) => {
    keyOf(req);
    return { tools: formulaTools(formulaOf(req.params)) };
  });

  app.post<{ Params: Params }>("/formulas/:owner/:formula/fibers", { bodyLimit: 1024 * 1024 }, async (req) => {
    const key = keyOf(req);
    const formula = formulaOf(req.params);
    const body = req.body as { name?: unknown; arguments?: unknown } | undefined;
    if (!body || typeof body.name !== "string" || body.name === "") {
      throw gatewayErrors.invalidRequest("name is required (the function to call)");
    }
    if (body.arguments !== undefined && typeof body.arguments !== "string") {
      throw gatewayErrors.invalidRequest("arguments must be a JSON string, as the model wrote it");
    }
    const result = await runOfficialTool({
      ctx,
      formula,
      name: body.name,
      argumentsJson: (body.arguments as string | undefined) ?? "{}",
      caller: { orgId: key.orgId, projectId: key.projectId, apiKeyId: key.keyId, currency: key.currency },
      requestId: req.id,
    });
    return result.status === "succeeded"
      ? { status: "succeeded", context: { output: result.output } }
      : { status: "failed", error: { message: result.error } };
  });
}
