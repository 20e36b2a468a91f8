import { CONTEXT_CACHE_LIMITS as L } from "@moonport/contracts";
import { type Db, newId, schema, type Tx } from "@moonport/db";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { gatewayErrors } from "../../chat/errors.ts";
import type { AppContext } from "../../context.ts";
import type { KeyIdentity } from "../../metering/pipeline.ts";
import { checkCacheContent, contentHash } from "./cache-content.ts";
import { expiryFrom, optionalMetadata, optionalText } from "./cache-fields.ts";
import { PREPARE_JOB } from "./cache-jobs.ts";

const cc = schema.contextCaches;

/** Caches that hold storage: what the 1M tokens per organization counts. */
const STORED = ["pending", "ready"] as const;

/** Tokens an organization's caches hold now (in `tx`, under its row lock when the caller took it). */
async function storedTokens(db: Db | Tx, orgId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<string>`coalesce(sum(${cc.tokens}), 0)::text` })
    .from(cc)
    .where(and(eq(cc.orgId, orgId), inArray(cc.status, [...STORED]), isNull(cc.deletedAt)));
  return Number(r?.n ?? 0);
}

/**
 * `POST /v1/caching`: validates and counts the content, checks the organization's storage under its row lock,
 * stores the cache as `pending` and queues its preparation (it becomes `ready` and its creation is billed there).
 */
export async function createCache(opts: { ctx: AppContext; key: KeyIdentity; body: unknown }) {
  const { ctx, key } = opts;
  const body = opts.body;
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw gatewayErrors.invalidRequest("the request body must be a JSON object");
  }
  const b = body as Record<string, unknown>;
  if (b.model !== L.family) {
    throw gatewayErrors.invalidRequest(`model must be "${L.family}" (a cache serves the whole model family)`);
  }
  const name = optionalText(b, "name", L.maxNameChars);
  const description = optionalText(b, "description", L.maxDescriptionChars);
  const metadata = optionalMetadata(b) ?? {};
  const now = ctx.clock.now();
  const expiredAt = expiryFrom(b, now, true)!;
  if (b.tags !== undefined && b.tags !== null) {
    if (!Array.isArray(b.tags) || b.tags.some((t) => typeof t !== "string" || !L.tagPattern.test(t))) {
      throw gatewayErrors.invalidRequest(
        "tags must be a list of names of 1-128 characters: a letter, then letters, digits, '_', '-' or '.'",
      );
    }
  }
  const tags = [...new Set((b.tags as string[] | undefined) ?? [])];
  const content = await checkCacheContent(b.messages, b.tools);
  const id = `cache-${newId("c").slice(2)}`;
  // Creating processes the tokens and bills them: the same admission as a chat call (balance, project budgets,
  // TPM/TPD with the cache's tokens), released at once since nothing keeps running.
  const admission = await ctx.meter.admit({
    key,
    requestId: id,
    model: L.checkModel,
    admissionTokens: content.tokens,
  });
  admission.release();
  const row = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${schema.organizations} where id = ${key.orgId} for update`);
    const used = await storedTokens(tx, key.orgId);
    if (used + content.tokens > L.maxTokensPerOrg) {
      throw gatewayErrors.invalidRequest(
        `your organization's caches would hold ${used + content.tokens} tokens, more than the ${L.maxTokensPerOrg} allowed; delete caches you no longer need`,
      );
    }
    const [created] = await tx
      .insert(cc)
      .values({
        id,
        orgId: key.orgId,
        projectId: key.projectId,
        apiKeyId: key.keyId,
        model: L.family,
        name: name ?? null,
        description: description ?? null,
        metadata,
        messages: content.messages,
        tools: content.tools,
        contentHash: contentHash(content.messages, content.tools),
        tokens: content.tokens,
        expiredAt,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    for (const tag of tags) {
      // A tag names one cache: creating it again moves it to the new cache.
      await tx
        .insert(schema.contextCacheTags)
        .values({ orgId: key.orgId, tag, cacheId: id, createdBy: key.keyId, createdAt: now })
        .onConflictDoUpdate({
          target: [schema.contextCacheTags.orgId, schema.contextCacheTags.tag],
          set: { cacheId: id, createdBy: key.keyId, createdAt: now },
        });
    }
    await ctx.jobs.enqueue({ name: PREPARE_JOB, payload: { cacheId: id }, key: `${PREPARE_JOB}:${id}` }, { tx });
    return created!;
  });
  return row;
}
