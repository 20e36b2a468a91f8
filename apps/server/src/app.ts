/**
 * Builds the Fastify app. main.ts and the tests both call buildApp; nothing here reads process.env.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import swagger from "@fastify/swagger";
import type { Database } from "@moonport/db";
import { newId } from "@moonport/db";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { Redis } from "ioredis";
import { type AppContext, type Clock, systemClock } from "./context.ts";
import { createEngines } from "./engines/index.ts";
import type { Config } from "./env.ts";
import { installAccessControl } from "./http/access.ts";
import { capConnectionsPerIp, connectionOptions } from "./http/connections.ts";
import { acceptEmptyJsonBody } from "./http/empty-json-body.ts";
import { consoleErrorHandler } from "./http/errors.ts";
import { requestLocale } from "./http/locale.ts";
import { openApiOptions } from "./http/openapi.ts";
import { rejectNulCharacters } from "./http/reject-nul.ts";
import type { App } from "./http/route.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { CSRF_COOKIE, checkCsrf, loadSession, newToken, setCsrfCookie } from "./http/session.ts";
import { registerWeb, type WebPages } from "./http/web.ts";
import { registerJobs } from "./jobs/register-jobs.ts";
import { createJobRunner } from "./jobs/runner.ts";
import { AppError } from "./lib/app-error.ts";
import { localFileStorage, objectFileStorage } from "./lib/file-storage.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { createGatewayPipeline, type GatewayPipelineHandle } from "./metering/create-gateway-pipeline.ts";
import { createKeyEvents } from "./metering/key-events.ts";
import type { GatewayPipeline } from "./metering/pipeline.ts";
import adminRoutes from "./modules/admin/routes.ts";
import alertRoutes from "./modules/alerts/routes.ts";
import { createSmsProvider, type SmsProvider } from "./modules/auth/index.ts";
import meRoutes from "./modules/auth/me-routes.ts";
import authRoutes from "./modules/auth/routes.ts";
import billRoutes from "./modules/bills/routes.ts";
import cacheRoutes from "./modules/caches/routes.ts";
import { createFilesService } from "./modules/files/index.ts";
import fileRoutes from "./modules/files/routes.ts";
import invoiceAdminRoutes from "./modules/invoices/admin-routes.ts";
import invoiceRoutes from "./modules/invoices/routes.ts";
import keyRoutes from "./modules/keys/routes.ts";
import mailRoutes from "./modules/mail/routes.ts";
import memberRoutes from "./modules/members/routes.ts";
import orgRoutes from "./modules/orgs/routes.ts";
import { describePaymentMethods, loadSandboxSecret } from "./modules/payments/index.ts";
import paymentRoutes from "./modules/payments/routes.ts";
import sandboxRoutes from "./modules/payments/sandbox-routes.ts";
import webhookRoutes from "./modules/payments/webhook-routes.ts";
import playgroundRoutes from "./modules/playground/routes.ts";
import projectRoutes from "./modules/projects/routes.ts";
import refundRoutes from "./modules/refunds/routes.ts";
import riddleRoutes from "./modules/riddles/routes.ts";
import supportRoutes from "./modules/support/routes.ts";
import systemRoutes from "./modules/system/routes.ts";
import toolRoutes from "./modules/tools/routes.ts";
import usageRoutes from "./modules/usage/routes.ts";
import verificationRoutes from "./modules/verification/routes.ts";
import { createObservability, installObservability, type Observability } from "./observability/index.ts";
import { createOutbound } from "./tools/outbound.ts";
import { createSecretBox, loadSecretKey } from "./tools/secret-box.ts";
import { collapseGatewaySlashes, gatewayFrameworkError, handleClientError } from "./v1/edge.ts";
import gatewayRoutes from "./v1/routes.ts";

const WEB_BUILD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/build/client");

export interface BuildAppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** Domain clock (tests move time with it); the system clock by default. */
  clock?: Clock;
  /** Replaces the SMS provider chosen by configuration (tests of failing providers). */
  sms?: SmsProvider;
  mailer?: Mailer;
  /** Built web app to serve (default: apps/web/build/client); tests point it at a fixture. */
  webRoot?: string;
  /**
   * Stands in for the meter's request-path calls (authenticate, admit, balance, settle) in tests of the request
   * surface; the real meter (metering/create-gateway-pipeline.ts) still flushes, charges jobs' lines and closes.
   * A function gets the context with the real meter as `ctx.meter`, to wrap it.
   */
  pipeline?: GatewayPipeline | ((ctx: AppContext) => GatewayPipeline);
  /** Metrics and tracing (observability/); built from the configuration by default. */
  observability?: Observability;
}

/** Console API modules, each a Fastify plugin taking the app context. Order does not matter. */
const apiModules: ((app: App, ctx: AppContext) => Promise<void>)[] = [
  authRoutes,
  meRoutes,
  orgRoutes,
  memberRoutes,
  projectRoutes,
  keyRoutes,
  usageRoutes,
  billRoutes,
  alertRoutes,
  mailRoutes,
  paymentRoutes,
  playgroundRoutes,
  riddleRoutes,
  fileRoutes,
  cacheRoutes,
  supportRoutes,
  toolRoutes,
  verificationRoutes,
  invoiceRoutes,
  refundRoutes,
];

export async function buildApp(opts: BuildAppOptions): Promise<{ app: App; ctx: AppContext }> {
  const { config, database } = opts;
  // Set once the web pages are registered: a browser's malformed address then gets the site's error page.
  let web: WebPages = {};
  const fastify = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    genReqId: (req) => {
      // Gateway requests are billed under their id: never the client's, and a pooled UUID is ~15 µs cheaper
      // than newId on the hot path. It is also the Msh-Request-Id of the response.
      if (req.url?.startsWith("/v1/")) return randomUUID();
      const incoming = req.headers["x-request-id"];
      return typeof incoming === "string" && /^[\w.-]{1,64}$/.test(incoming) ? incoming : newId("req");
    },
    bodyLimit: 1024 * 1024,
    ...connectionOptions(config),
    // /v1 answers in the docs/api-compat.md §3 envelope even when Fastify or Node's parser refuses the request before any
    // route runs (v1/edge.ts). Elsewhere malformed URLs and over-long path parameters get the console
    // envelope rather than Fastify's own body (found by apps/server/test/fuzz-console.test.ts).
    rewriteUrl: collapseGatewaySlashes,
    frameworkErrors: (err, req, reply) =>
      gatewayFrameworkError(err, req, reply, (e, r, rep) => {
        if (e.code === "FST_ERR_BAD_URL" && web.sendBadUrlPage) return web.sendBadUrlPage(r, rep);
        // No onRequest hook ran: the request's locale is read here.
        r.locale = requestLocale(r);
        return consoleErrorHandler(new AppError("bad_request", { params: { reason: "malformed URL" } }), r, rep);
      }),
    clientErrorHandler: handleClientError,
    // Graceful shutdown: in-flight requests finish, idle keep-alive sockets close at once.
    forceCloseConnections: "idle",
  }).withTypeProvider<ZodTypeProvider>();
  capConnectionsPerIp(fastify.server, config.http.maxConnectionsPerIp);
  // Before any route: request counting is attached to each route as it is registered (observability/index.ts).
  const observability = opts.observability ?? (await createObservability(config));
  installObservability(fastify, observability);
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);

  const redis = config.redisUrl
    ? // No offline queue: while disconnected, commands fail at once and limiters fall back to memory.
      // Auto-pipelining: the commands issued in one event-loop turn (each /v1 request's lease and counters, and
      // those of every other request admitted in that turn) leave in one socket write instead of a write(2) each,
      // which was a fifth of the gateway's CPU on PostgreSQL + Redis (`npm run bench:profile`).
      new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true })
    : undefined;
  if (redis) {
    redis.on("error", (err) => fastify.log.warn({ err }, "redis error"));
    // Counters must start in Redis, not in the fallback, so wait (briefly) for the first connection.
    const ready = await Promise.race([
      new Promise<boolean>((resolve) => redis.once("ready", () => resolve(true))),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
    ]);
    if (!ready) fastify.log.warn("redis not reachable yet; rate limits count in memory until it is");
    fastify.addHook("onClose", async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  if (config.payments.sandboxAllowed) config.payments.sandboxSecret = await loadSandboxSecret(config, database);
  fastify.log.info(describePaymentMethods(config), "payment methods");
  const ctx = {
    config,
    database,
    db: database.db,
    log: fastify.log,
    clock: opts.clock ?? systemClock,
    redis,
    sms: opts.sms ?? createSmsProvider({ config, db: database.db, log: fastify.log }),
    observability,
    mailer: opts.mailer ?? createMailer({ config, db: database.db, log: fastify.log }),
    exportFiles: localFileStorage(path.join(config.dataDir, "exports")),
  } as AppContext;
  // The gateway's money side (metering/create-gateway-pipeline.ts) and the revocation bus it listens to.
  ctx.keyEvents = createKeyEvents(ctx);
  await ctx.keyEvents.start();
  ctx.meter = createGatewayPipeline(ctx);
  await ctx.meter.ready;
  observability.metrics.watchGateway(ctx.meter.stats);
  ctx.engines = createEngines(config);
  ctx.files = createFilesService(config);
  ctx.outbound = createOutbound({ allowHosts: new Set(config.outboundAllowHosts) });
  ctx.toolSecrets = createSecretBox(loadSecretKey({ configured: config.toolSecretsKey, dataDir: config.dataDir }));
  // With a shared bucket, exports live there too: any instance can serve a download.
  if (ctx.files.store.kind === "s3") {
    ctx.exportFiles = objectFileStorage(ctx.files.store, path.join(config.dataDir, "exports"));
  }
  ctx.jobs = createJobRunner(ctx);
  registerJobs(ctx);
  const realMeter = ctx.meter;
  ctx.meter = withStandIn(realMeter, typeof opts.pipeline === "function" ? opts.pipeline(ctx) : opts.pipeline);
  fastify.addHook("onClose", async () => {
    // Jobs first: a running job may still need the gateway's bus and the database.
    // Extraction workers are ended first so running extraction jobs end (and are retried after the restart).
    await ctx.files.close();
    await ctx.jobs.stop();
    await realMeter.close();
    await ctx.keyEvents.close();
    await ctx.engines.close();
    await ctx.outbound.close();
    await observability.close();
    ctx.mailer.close();
  });

  registerSecurityHeaders(fastify);
  // Before any route: every /api route must declare who may call it (http/access.ts), and the OpenAPI
  // document (/api/openapi.json) is built from the same routes.
  installAccessControl(fastify, ctx);
  await fastify.register(swagger, openApiOptions(ctx));
  fastify.decorateRequest("locale", "zh-CN");
  fastify.decorateRequest("auth", null);
  fastify.decorateRequest("authExpired", false);

  // Gateway: Bearer keys only, its own error envelope (docs/api-compat.md §3), no console hooks. Outside the site's scope
  // below, so /v1 runs none of its per-request hooks (cookies, locale, CSRF): each is a step of every API call.
  await fastify.register(async (v1) => gatewayRoutes(v1, { ctx, pipeline: ctx.meter, engines: ctx.engines }), {
    prefix: "/v1",
  });

  // Everything else: pages, the console API, the sandbox PSP, webhooks and system routes.
  await fastify.register(async (site) => {
    await site.register(cookie);
    // A callback hook (no promise per request).
    site.addHook("onRequest", (req, reply, done) => {
      req.locale = requestLocale(req);
      reply.header("x-request-id", req.id);
      // Every page load hands the browser a CSRF token (double-submit); sign-in rotates and binds it.
      if (req.method === "GET" && !req.cookies[CSRF_COOKIE]) setCsrfCookie(req, reply, newToken());
      done();
    });

    await site.register(async (app) => systemRoutes(app, ctx));
    // The sandbox PSP's pages and tokenization, and the providers' webhook (outside /api: no session, no CSRF).
    if (config.payments.sandboxAllowed) await site.register(async (app) => sandboxRoutes(app, ctx));
    await site.register(async (app) => webhookRoutes(app, ctx));

    // Console API: sessions, CSRF, the console error envelope.
    await site.register(
      async (api) => {
        api.setErrorHandler(consoleErrorHandler);
        acceptEmptyJsonBody(api);
        // NUL characters are refused first; the session is loaded before validation so that operator routes can
        // answer like a missing route before their schemas are checked (http/access.ts); the CSRF check stays
        // after validation.
        api.addHook("preValidation", rejectNulCharacters);
        api.addHook("preValidation", async (req) => {
          await loadSession(ctx.db, req, ctx.clock.now());
        });
        api.addHook("preHandler", async (req) => {
          checkCsrf(req);
        });
        for (const mod of apiModules) await api.register(async (scope) => mod(scope, ctx));
        // The back office: operator routes only (http/access.ts refuses anything else under this prefix).
        await api.register(async (scope) => adminRoutes(scope, ctx), { prefix: "/admin" });
        await api.register(async (scope) => invoiceAdminRoutes(scope, ctx), { prefix: "/admin" });
        api.get("/openapi.json", { config: { access: "public" } }, async () => fastify.swagger());
        api.setNotFoundHandler((req, reply) => consoleErrorHandler(new AppError("route_not_found"), req, reply));
      },
      { prefix: "/api" },
    );

    if (config.serveWeb) web = await registerWeb(site, config, opts.webRoot ?? WEB_BUILD_DIR);
    else site.setErrorHandler(consoleErrorHandler);
  });

  return { app: fastify, ctx };
}

/** The real meter with a test's stand-in answering the request-path calls; the real one itself without one. */
function withStandIn(real: GatewayPipelineHandle, standIn: GatewayPipeline | undefined): GatewayPipelineHandle {
  if (!standIn) return real;
  return {
    ...real,
    authenticate: (header) => standIn.authenticate(header),
    admit: (req) => standIn.admit(req),
    balance: (orgId) => standIn.balance(orgId),
    settle: (req) => standIn.settle(req),
  };
}
