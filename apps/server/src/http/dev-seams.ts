/**
 * Development seams: routes that exist for local development and browser tests only (the SMS outbox, the cash
 * grant). They are registered only with DEV_SEAMS=true (env.ts refuses it in production) and, even then, answer
 * only clients on this machine. The check reads the socket's address, never X-Forwarded-For: behind a proxy on
 * the same host every request comes from loopback, which is why the seams must also be switched on explicitly.
 */
import { AppError } from "../lib/app-error.ts";
import type { FastifyRequest } from "./route.ts";

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4.startsWith("127.") || address === "::1";
}

/**
 * onRequest hook of every seam route (declared with `config.loopbackOnly`, installed by http/access.ts): anyone but a loopback client gets the same 404 as for a route that does
 * not exist, so the seam cannot even be detected from outside.
 */
export async function loopbackOnly(req: FastifyRequest): Promise<void> {
  if (!isLoopbackAddress(req.raw.socket?.remoteAddress)) throw new AppError("route_not_found");
}
