/**
 * `/v1/caching` and `/v1/caching/refs/tags` (docs/api-compat.md §7.1), registered inside the gateway plugin
 * (v1/routes.ts): the key is checked before the body is read, and refusals are §3 envelopes.
 */
import type { FastifyRequest } from "fastify";
import type { AppContext } from "../../context.ts";
import type { App } from "../../http/route.ts";
import type { KeyIdentity } from "../../metering/pipeline.ts";
import { toCacheObject, toTagObject } from "./cache-object.ts";
import { createTag, deleteTag, getTag, listTags } from "./cache-tags.ts";
import { createCache } from "./create-cache.ts";
import { deleteCache, getCache, listCaches, updateCache } from "./manage-caches.ts";

type Query = { limit?: string; order?: string; after?: string; before?: string };

/** `metadata[key]=value` query parameters (Fastify's parser keeps them as flat keys). */
function metadataFilter(query: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m && typeof v === "string") out[m[1]!] = v;
  }
  return out;
}

export default async function cachingV1Routes(
  app: App,
  opts: { ctx: AppContext; keyOf: (req: FastifyRequest) => KeyIdentity },
) {
  const { ctx, keyOf } = opts;

  app.post("/caching", async (req) => toCacheObject(await createCache({ ctx, key: keyOf(req), body: req.body })));

  app.get<{ Querystring: Query }>("/caching", async (req) => {
    const key = keyOf(req);
    const rows = await listCaches(ctx, key.orgId, {
      ...req.query,
      metadata: metadataFilter(req.query as Record<string, unknown>),
    });
    return { object: "list", data: rows.map(toCacheObject) };
  });

  app.get<{ Params: { id: string } }>("/caching/:id", async (req) =>
    toCacheObject(await getCache(ctx, keyOf(req).orgId, req.params.id)),
  );

  app.put<{ Params: { id: string } }>("/caching/:id", async (req) =>
    toCacheObject(await updateCache(ctx, keyOf(req).orgId, req.params.id, req.body)),
  );

  app.delete<{ Params: { id: string } }>("/caching/:id", async (req) =>
    deleteCache(ctx, keyOf(req).orgId, req.params.id),
  );

  app.post("/caching/refs/tags", async (req) => toTagObject(await createTag(ctx, keyOf(req), req.body)));

  app.get<{ Querystring: Query }>("/caching/refs/tags", async (req) => {
    const rows = await listTags(ctx, keyOf(req).orgId, req.query);
    return { object: "list", data: rows.map(toTagObject) };
  });

  app.get<{ Params: { tag: string } }>("/caching/refs/tags/:tag", async (req) =>
    toTagObject(await getTag(ctx, keyOf(req).orgId, req.params.tag)),
  );

  app.get<{ Params: { tag: string } }>("/caching/refs/tags/:tag/content", async (req) => {
    const orgId = keyOf(req).orgId;
    const tag = await getTag(ctx, orgId, req.params.tag);
    return toCacheObject(await getCache(ctx, orgId, tag.cacheId));
  });

  app.delete<{ Params: { tag: string } }>("/caching/refs/tags/:tag", async (req) =>
    deleteTag(ctx, keyOf(req).orgId, req.params.tag),
  );
}
