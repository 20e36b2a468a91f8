/**
 * Declared route access, enforced in one place. Every `/api` route states who may call it (`config.access`, see
 * http/route.ts); `installAccessControl` refuses to register one that does not, records each declaration (the
 * permission matrix test and the OpenAPI document read them) and adds the check before the route's handler:
 *
 * - signed-out callers of a non-public route: 401 (`unauthenticated` / `session_expired`);
 * - an organization or project outside the caller's reach: 404 `not_found`, the answer for a missing one;
 * - visible, but the caller's role does not allow the route: 403 `forbidden`;
 * - operator routes: anyone but the operator gets the answer of a missing route (404 `route_not_found`), decided
 *   before the request is validated so that not even a 400 tells the route exists.
 *
 * The check resolves the caller's organization and project roles once and leaves them on `req.caller` for the
 * handler, which passes them to the domain function.
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from "fastify";
import type { AppContext } from "../context.ts";
import { AppError } from "../lib/app-error.ts";
import { isOperator } from "../modules/auth/index.ts";
import { loopbackOnly } from "./dev-seams.ts";
import { getOrgAccess, getProjectAccess } from "./org-access.ts";
import {
  ACCESS_LEVELS,
  type Access,
  type DeclaredRoute,
  orgScoped,
  projectSource,
  type RouteAccess,
  routeNotFound,
} from "./route.ts";
import { checkCsrf, requireUser } from "./session.ts";

function isApiRoute(url: string): boolean {
  return url === "/api" || url.startsWith("/api/");
}

function paramsOf(url: string): string[] {
  return [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

function methodsOf(route: RouteOptions): string[] {
  return (Array.isArray(route.method) ? route.method : [route.method]).map(String);
}

/** Appends a hook to whatever the route already has at that stage. */
function appendHook(
  route: RouteOptions,
  stage: "onRequest" | "preValidation" | "preHandler",
  hook: onRequestHookHandler,
) {
  const existing = route[stage];
  route[stage] = [...(existing ? (Array.isArray(existing) ? existing : [existing]) : []), hook] as never;
}

function stringField(value: unknown, name: string): string | undefined {
  const v = (value as Record<string, unknown> | undefined)?.[name];
  return typeof v === "string" ? v : undefined;
}

async function checkCaller(ctx: AppContext, req: FastifyRequest, route: DeclaredRoute): Promise<void> {
  const auth = requireUser(req);
  req.caller = { auth };
  if (!orgScoped(route.access)) return;
  const orgId = stringField(req.params, "orgId");
  if (!orgId) throw new Error(`route ${route.url} is declared ${route.access} but has no :orgId`);
  const org = await getOrgAccess(ctx.db, { userId: auth.userId, orgId });
  req.caller.org = org;
  const source = projectSource(route);
  if (source) {
    const projectId = stringField(source === "body" ? req.body : req.params, "projectId");
    if (!projectId) throw new AppError("not_found");
    req.caller.project = await getProjectAccess(ctx.db, org, projectId);
  }
  const allowed: Record<Exclude<Access, "public" | "user" | "operator">, boolean> = {
    orgMember: true,
    orgAdmin: org.role === "admin",
    projectMember: Boolean(req.caller.project),
    projectAdmin: req.caller.project?.role === "admin",
  };
  if (!allowed[route.access as keyof typeof allowed]) throw new AppError("forbidden");
}

/** The longest a `readsBills` route waits for this instance's queued bills to be committed. */
const BILLS_READ_WAIT_MS = 2_000;

/**
 * Call on the root instance before any route is registered. The declarations are collected into
 * `app.declaredRoutes` as routes register.
 */
export function installAccessControl(app: FastifyInstance, ctx: AppContext): void {
  const declared: DeclaredRoute[] = [];
  app.decorate("declaredRoutes", declared);
  app.decorateRequest("caller", null);
  app.addHook("onRoute", (route) => {
    if (!isApiRoute(route.url)) return;
    const config = (route.config ?? {}) as Partial<RouteAccess>;
    const { access } = config;
    if (!access || !ACCESS_LEVELS.includes(access)) {
      throw new Error(`${methodsOf(route).join(",")} ${route.url} declares no access (config.access, http/route.ts)`);
    }
    if (route.url.startsWith("/api/admin/") && access !== "operator") {
      throw new Error(`${route.url}: routes under /api/admin are for the operator only`);
    }
    const decl: DeclaredRoute = {
      method: "",
      url: route.url,
      params: paramsOf(route.url),
      access,
      ...(config.project ? { project: config.project } : {}),
      ...(config.objectRule ? { objectRule: config.objectRule } : {}),
      ...(config.loopbackOnly ? { loopbackOnly: true as const } : {}),
    };
    if (projectSource(decl) === undefined && (access === "projectMember" || access === "projectAdmin")) {
      throw new Error(`${route.url} is declared ${access} but names no project`);
    }
    for (const method of methodsOf(route)) declared.push({ ...decl, method });
    if (decl.loopbackOnly) appendHook(route, "onRequest", loopbackOnly);
    if (access === "operator") {
      // Before validation: the CSRF check a missing route would also get, then the same 404 for everyone else.
      appendHook(route, "preValidation", async (req) => {
        checkCsrf(req);
        if (!req.auth || !(await isOperator(ctx.db, req.auth.userId))) throw routeNotFound();
        req.caller = { auth: req.auth };
      });
    } else if (access !== "public") {
      appendHook(route, "preHandler", (req) => checkCaller(ctx, req, decl));
    }
    // After the access check: only callers allowed to read the answer bring the commit forward.
    if (config.readsBills) appendHook(route, "preHandler", () => ctx.meter.flush(BILLS_READ_WAIT_MS));
  });
}
