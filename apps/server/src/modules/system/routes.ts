import {
  EDITION_CURRENCY,
  EDITION_LOCALE,
  EDITION_TIME_ZONE,
  type Edition,
  type EditionConfig,
  PublicConfig,
  resolveEdition,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { App } from "../../http/route.ts";

const TEXTS: Record<Edition, (brand: string) => { title: string; description: string; keywords: string[] }> = {
  cn: (brand) => ({
    title: `${brand} 开放平台`,
    description: `${brand} 开放平台：万亿参数大模型、256K 超长上下文、工具调用、代码生成与多轮对话，兼容 OpenAI 的 API。`,
    keywords: [brand, "大模型", "API", "开放平台", "长上下文", "工具调用"],
  }),
  global: (brand) => ({
    title: `${brand} Platform`,
    description: `${brand}: a trillion-parameter model family with 256K context, tool calling, code generation and dialogue, behind an OpenAI-compatible API.`,
    keywords: [brand, "LLM", "API", "developer platform", "long context", "tool calling"],
  }),
};

function editionConfig(ctx: AppContext, edition: Edition, origin: string): EditionConfig {
  const site = (ctx.config.sites[edition] ?? origin).replace(/\/$/, "");
  return {
    edition,
    currency: EDITION_CURRENCY[edition],
    locale: EDITION_LOCALE[edition],
    timeZone: EDITION_TIME_ZONE[edition],
    siteUrl: site,
    apiBaseUrl: ctx.config.apiBaseUrls[edition] ?? `${site}/v1`,
    ...TEXTS[edition](ctx.config.brandName),
    analytics: ctx.config.analytics[edition],
  };
}

export default async function systemRoutes(app: App, ctx: AppContext) {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    try {
      await ctx.database.ping();
      return { status: "ready", database: ctx.database.kind };
    } catch {
      return reply.status(503).send({ status: "unavailable", database: ctx.database.kind });
    }
  });

  /** Edition and brand for the web app: which site, currency and API base URL this request belongs to. */
  app.get("/api/config", { config: { access: "public" }, schema: { response: { 200: PublicConfig } } }, async (req) => {
    const origin = `${req.protocol}://${req.headers.host ?? "localhost"}`;
    const edition = resolveEdition({ host: req.headers.host, locale: req.locale, hosts: ctx.config.sites });
    return {
      brandName: ctx.config.brandName,
      locale: req.locale,
      twoHost: Boolean(ctx.config.sites.cn && ctx.config.sites.global),
      edition: editionConfig(ctx, edition, origin),
      other: editionConfig(ctx, edition === "cn" ? "global" : "cn", origin),
    };
  });
}
