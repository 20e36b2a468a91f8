import { isPlaygroundKeyId, type PlaygroundRunBill } from "@moonport/contracts";
import { schema, timeOfOrderedId } from "@moonport/db";
import { and, eq, gte } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";

/**
 * What a playground run of the caller was billed: the bill rows of its request id, summed. The bill writer
 * commits in batches, so it is drained first; the answer is then exactly what the project's bills show. A run's
 * request id is time-ordered (newTimeOrderedId), and its lines were settled after it started: the lookup is a
 * range of the organization's timeline from then, not a scan of its history.
 */
export async function getPlaygroundRunBill(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  requestId: string;
}): Promise<PlaygroundRunBill> {
  const startedAt = timeOfOrderedId(opts.requestId);
  if (startedAt === null) throw new AppError("not_found");
  await opts.ctx.meter.flush();
  const rb = schema.requestBills;
  const rows = await opts.ctx.db
    .select()
    .from(rb)
    .where(
      and(
        eq(rb.orgId, opts.access.org.id),
        // The run is settled by the instance that started it, after it started; a minute's slack costs nothing.
        gte(rb.createdAt, new Date(startedAt - 60_000)),
        eq(rb.requestId, opts.requestId),
        eq(rb.projectId, opts.project.project.id),
      ),
    );
  const own = rows.filter((r) => r.apiKeyId === playgroundKeyId(opts.access.userId) && isPlaygroundKeyId(r.apiKeyId));
  if (!own.length) throw new AppError("not_found");
  return {
    requestId: opts.requestId,
    model: own[0]!.model,
    inputTokens: own.reduce((s, r) => s + (r.productType === "model_inference" ? r.inputTokens : 0), 0),
    outputTokens: own.reduce((s, r) => s + (r.productType === "model_inference" ? r.outputTokens : 0), 0),
    cachedTokens: own.reduce((s, r) => s + (r.productType === "model_inference" ? r.cachedTokens : 0), 0),
    consumption: own.reduce((s, r) => s + BigInt(r.consumption), 0n).toString(),
    currency: opts.access.org.currency,
  };
}

/** The key id of a user's playground runs on bill rows (no API key is involved; contracts PLAYGROUND_KEY_PREFIX). */
export function playgroundKeyId(userId: string): string {
  return `playground:${userId}`;
}
