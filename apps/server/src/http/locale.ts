import { LOCALE_COOKIE, negotiateLocale } from "@moonport/contracts";
import type { FastifyRequest } from "fastify";

export function requestLocale(req: FastifyRequest) {
  return negotiateLocale(req.cookies?.[LOCALE_COOKIE], req.headers["accept-language"]);
}
