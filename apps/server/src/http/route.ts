import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../lib/app-error.ts";
import type { OrgAccess, ProjectAccess } from "./org-access.ts";
import type { AuthState } from "./session.ts";

/** The Fastify instance type every route module receives: zod schemas type params, query, body and replies. */
export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;
export type { FastifyReply, FastifyRequest };

/**
 * Who may call a console route (modules/README.md "Console roles"). Every `/api` route declares one in
 * `config.access`; the app refuses to start with a route that does not, and http/access.ts enforces it before the
 * handler runs.
 *
 * - `public`: anyone, signed in or not.
 * - `user`: any signed-in user.
 * - `orgMember` / `orgAdmin`: a member / an admin of the organization in `:orgId`.
 * - `projectMember` / `projectAdmin`: a member / an admin of the project (organization admins are admins of every
 *   project); the project id comes from `:projectId`, or from the body when `project: "body"`.
 * - `operator`: the platform operator; everyone else gets the answer of a missing route.
 */
export const ACCESS_LEVELS = [
  "public",
  "user",
  "orgMember",
  "orgAdmin",
  "projectMember",
  "projectAdmin",
  "operator",
] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** A route's access declaration (its `config`). */
export interface RouteAccess {
  access: Access;
  /**
   * Where the project id is: the `:projectId` path parameter (the default when the path has one) or the body's
   * `projectId` field. A route with a project checks that the caller can see it (404) before the role (403),
   * whatever its level: an organization admin's action on a project still needs the project to be visible.
   */
  project?: "params" | "body";
  /**
   * An object-level rule the domain function applies on top (it needs the object's data), in a few words for
   * the OpenAPI document and the permission matrix, e.g. "project members: only the keys they created".
   */
  objectRule?: string;
  /**
   * A development seam (http/dev-seams.ts): only clients on this machine (the socket's address) reach it; anyone
   * else gets the answer of a missing route, before any other check.
   */
  loopbackOnly?: true;
  /**
   * The answer reads bills (spend, balances by usage, request details): this instance's bills still queued for
   * the batch commit (metering/bill-writer.ts, up to 500 ms) are committed first, so a console page opened right
   * after an API call shows that call. Bounded: a database that cannot commit does not hold the page.
   */
  readsBills?: true;
}

/** What the access check found out about the caller; domain functions take these instead of re-checking. */
interface Caller {
  auth: AuthState;
  org?: OrgAccess;
  project?: ProjectAccess;
}

declare module "fastify" {
  interface FastifyContextConfig {
    access?: Access;
    project?: RouteAccess["project"];
    objectRule?: string;
    readsBills?: true;
  }
  interface FastifyRequest {
    /** Set by the access check of routes that need a signed-in user. */
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** Every /api route with its access declaration, in registration order (http/access.ts). */
    declaredRoutes: readonly DeclaredRoute[];
  }
}

/** One declared route, as the app registered it (the permission matrix and the OpenAPI document read these). */
export interface DeclaredRoute extends RouteAccess {
  method: string;
  url: string;
  /** The route's path parameters, read from its URL. */
  params: string[];
}

/** True when the route acts inside one organization (its `:orgId`), possibly on one of its projects. */
export function orgScoped(access: Access): boolean {
  return access === "orgMember" || access === "orgAdmin" || access === "projectMember" || access === "projectAdmin";
}

/** Where a declared route finds its project, if it has one. */
export function projectSource(route: { access: Access; project?: "params" | "body"; params: string[] }) {
  if (!orgScoped(route.access)) return undefined;
  if (route.project) return route.project;
  return route.params.includes("projectId") ? "params" : undefined;
}

function callerOf(req: FastifyRequest): Caller {
  // Reaching here without a caller means the route's declaration and its handler disagree: a bug, not a denial.
  if (!req.caller) throw new Error(`route ${req.routeOptions.url} reads a caller it did not declare`);
  return req.caller;
}

/** The signed-in caller of a route declared `user` or narrower. */
export function callerAuth(req: FastifyRequest): AuthState {
  return callerOf(req).auth;
}

/** The caller's membership of the route's organization (routes declared `orgMember` or narrower). */
export function orgAccess(req: FastifyRequest): OrgAccess {
  const org = callerOf(req).org;
  if (!org) throw new Error(`route ${req.routeOptions.url} declares no organization`);
  return org;
}

/** The caller's access to the route's project (routes with a project). */
export function projectAccess(req: FastifyRequest): ProjectAccess {
  const project = callerOf(req).project;
  if (!project) throw new Error(`route ${req.routeOptions.url} declares no project`);
  return project;
}

/** The error every denial of an operator route throws: the same answer as a route that does not exist. */
export function routeNotFound(): AppError {
  return new AppError("route_not_found");
}
