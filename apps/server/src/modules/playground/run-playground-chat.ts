import { GatewayError } from "../../chat/errors.ts";
import { type ChatRun, startChat } from "../../chat/run-chat.ts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import type { KeyIdentity } from "../../metering/pipeline.ts";
import { playgroundKeyId } from "./get-playground-run-bill.ts";
import { playgroundError } from "./playground-error.ts";

/**
 * Starts a playground run: the chat core with the gateway's own pipeline (ctx.meter, the one /v1 uses), the
 * signed-in member's project standing in for an API key. So a run meets the same rate limits (per
 * organization), project budgets and balance rule, and is billed like an API call; its bill rows carry the key
 * id `playground:<userId>`, which is how bills tell playground runs from API calls. Refusals become console
 * errors in the user's language (playground-error.ts).
 */
export async function startPlaygroundChat(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  body: unknown;
  requestId: string;
  signal: AbortSignal;
  onSettleError: (e: unknown) => void;
}): Promise<ChatRun> {
  const identity: KeyIdentity = {
    keyId: playgroundKeyId(opts.access.userId),
    orgId: opts.access.org.id,
    projectId: opts.project.project.id,
    currency: opts.access.org.currency,
  };
  try {
    return await startChat({
      meter: opts.ctx.meter,
      engines: opts.ctx.engines,
      key: identity,
      cacheScope: identity.orgId,
      body: opts.body,
      requestId: opts.requestId,
      signal: opts.signal,
      onSettleError: opts.onSettleError,
    });
  } catch (e) {
    throw e instanceof GatewayError ? playgroundError(e) : e;
  }
}
