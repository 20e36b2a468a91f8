import type { FastifyInstance } from "fastify";

/**
 * Clients (and HTTP libraries) often send `Content-Type: application/json` on every request, also on a DELETE or
 * a bodiless POST with nothing after the headers. Fastify's JSON parser refuses an empty body; for a route that
 * declares no body schema there is nothing to parse, so the console API reads it as no body. A route with a body
 * schema still gets its validation error.
 */
export function acceptEmptyJsonBody(scope: FastifyInstance): void {
  const parseJson = scope.getDefaultJsonParser("error", "error");
  scope.removeContentTypeParser("application/json");
  scope.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    if (body === "" && req.routeOptions.schema?.body === undefined) done(null, undefined);
    else parseJson(req, body as string, done);
  });
}
