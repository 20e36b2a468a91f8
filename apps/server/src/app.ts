/**
 * Builds the Fastify app. main.ts and the tests both call buildApp; nothing here reads process.env.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import type { Database } from "@moonport/db";
import { newId } from "@moonport/db";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "./context.ts";
import type { Config } from "./env.ts";
import { AppError, consoleErrorHandler } from "./http/errors.ts";
import { requestLocale } from "./http/locale.ts";
import type { App } from "./http/route.ts";
import { CSRF_COOKIE, checkCsrf, loadSession, newToken, setCsrfCookie } from "./http/session.ts";
import { registerWeb } from "./http/web.ts";
import systemRoutes from "./modules/system/routes.ts";

export const WEB_BUILD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/build/client");

export interface BuildAppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** Built web app to serve (default: apps/web/build/client); tests point it at a fixture. */
  webRoot?: string;
}

/** Console API modules, each a Fastify plugin taking the app context. Order does not matter. */
const apiModules: ((app: App, ctx: AppContext) => Promise<void>)[] = [];

export async function buildApp(opts: BuildAppOptions): Promise<{ app: App; ctx: AppContext }> {
  const { config, database } = opts;
  const fastify = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers["x-request-id"];
      return typeof incoming === "string" && /^[\w.-]{1,64}$/.test(incoming) ? incoming : newId("req");
    },
    bodyLimit: 1024 * 1024,
    // Graceful shutdown: in-flight requests finish, idle keep-alive sockets close at once.
    forceCloseConnections: "idle",
  }).withTypeProvider<ZodTypeProvider>();
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);

  const ctx: AppContext = { config, database, db: database.db, log: fastify.log };

  await fastify.register(cookie);
  fastify.decorateRequest("locale", "zh-CN");
  fastify.decorateRequest("auth", null);
  fastify.decorateRequest("authExpired", false);
  fastify.addHook("onRequest", async (req, reply) => {
    req.locale = requestLocale(req);
    reply.header("x-request-id", req.id);
    // Every page load hands the browser a CSRF token (double-submit); sign-in rotates and binds it.
    if (req.method === "GET" && !req.cookies[CSRF_COOKIE] && !req.url.startsWith("/v1")) {
      setCsrfCookie(req, reply, newToken());
    }
  });

  await fastify.register(async (app) => systemRoutes(app, ctx));

  // Console API: sessions, CSRF, the console error envelope.
  await fastify.register(
    async (api) => {
      api.setErrorHandler(consoleErrorHandler);
      api.addHook("preHandler", async (req) => {
        await loadSession(ctx.db, req);
        checkCsrf(req);
      });
      for (const mod of apiModules) await api.register(async (scope) => mod(scope, ctx));
      api.setNotFoundHandler((req, reply) => consoleErrorHandler(new AppError("route_not_found"), req, reply));
    },
    { prefix: "/api" },
  );

  if (config.serveWeb) await registerWeb(fastify, config, opts.webRoot ?? WEB_BUILD_DIR);
  else fastify.setErrorHandler(consoleErrorHandler);

  return { app: fastify, ctx };
}
