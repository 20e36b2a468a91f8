import type { Currency } from "@moonport/contracts";
import { newId } from "@moonport/db";
import { gatewayErrors } from "../../chat/errors.ts";
import type { AppContext } from "../../context.ts";
import { webSearchFee } from "../../metering/pricing.ts";
import { type FiberResult, runFormula } from "./official/catalog.ts";
import type { Formula } from "./official/formula.ts";

/**
 * One official tool call on behalf of a project (a /v1 fiber or a playground tool step). Free tools just run;
 * web-search (docs/api-compat.md §2.5, §9) needs a positive balance first and, once it succeeded, bills one search fee
 * through the gateway's charge path (journaled, exactly once per request id, like every other bill line).
 */
export async function runOfficialTool(opts: {
  ctx: AppContext;
  formula: Formula;
  name: string;
  argumentsJson: string;
  caller: { orgId: string; projectId: string; apiKeyId: string; currency: Currency };
  requestId: string;
  signal?: AbortSignal;
}): Promise<FiberResult> {
  const { ctx, formula, caller } = opts;
  if (formula.billed) {
    const balance = await ctx.meter.balance(caller.orgId);
    if (!balance || balance.available <= 0n) throw gatewayErrors.insufficientBalance();
  }
  const result = await runFormula(formula, opts.name, opts.argumentsJson, {
    ctx,
    orgId: caller.orgId,
    projectId: caller.projectId,
    signal: opts.signal,
  });
  if (formula.billed && result.status === "succeeded") {
    await ctx.meter.charge({
      requestId: opts.requestId,
      orgId: caller.orgId,
      projectId: caller.projectId,
      apiKeyId: caller.apiKeyId,
      createdAt: ctx.clock.now().getTime(),
      lines: [
        {
          id: newId("bill"),
          model: formula.uri,
          productName: "$web_search",
          productType: "$web_search",
          inputTokens: 0,
          outputTokens: 0,
          cachedTokens: 0,
          toolCalls: 1,
          consumption: webSearchFee(caller.currency, 1).toString(),
        },
      ],
    });
  }
  return result;
}
