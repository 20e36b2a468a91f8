/**
 * The console API's OpenAPI document, served at GET /api/openapi.json. It is generated from the routes
 * themselves: their zod schemas (through fastify-type-provider-zod's transform) and their access declarations
 * (`x-access`, plus `x-object-rule` where the domain narrows it further). `/v1` is not in it: the gateway's
 * contract is docs/api-compat.md.
 */
import type { SwaggerOptions } from "@fastify/swagger";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import type { AppContext } from "../context.ts";
import type { RouteAccess } from "./route.ts";

export function openApiOptions(ctx: AppContext): SwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: `${ctx.config.brandName} console API`,
        version: "1",
        description:
          "Session-cookie API of the web console. State-changing requests need the CSRF token of the mp_csrf " +
          "cookie in the x-csrf-token header. x-access names who may call each operation.",
      },
    },
    transform: (input) => {
      const { url, route } = input;
      if (!(url === "/api" || url.startsWith("/api/"))) return { schema: { hide: true }, url };
      const { schema } = jsonSchemaTransform(input);
      const config = (route.config ?? {}) as Partial<RouteAccess>;
      return {
        url,
        schema: {
          ...schema,
          tags: [url.split("/")[2] ?? "api"],
          "x-access": config.access,
          ...(config.project === "body" ? { "x-project": "body.projectId" } : {}),
          ...(config.objectRule ? { "x-object-rule": config.objectRule } : {}),
        },
      };
    },
  };
}
