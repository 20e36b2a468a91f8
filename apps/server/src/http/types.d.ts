import type { Locale } from "@moonport/contracts";
import type { AuthState } from "./session.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** UI language of this request: locale cookie, then Accept-Language, then zh-CN. */
    locale: Locale;
    auth: AuthState | null;
    authExpired: boolean;
    sessionCsrfHash?: string;
  }
}
