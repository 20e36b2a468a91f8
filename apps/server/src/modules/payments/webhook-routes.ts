/**
 * Our notification endpoint for every payment provider: `POST /webhooks/payments/:provider` (outside /api: no
 * session, no CSRF; a PSP calls it from its servers). The body stays raw (JSON for Stripe, WeChat Pay and the
 * sandbox, a form for Alipay) because signatures cover the exact bytes; the adapter checks them before anything
 * is parsed. Answers the acknowledgement the provider expects, 400 on a bad signature, 404 for a provider that is
 * not configured.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { receiveNotification } from "./receive-notification.ts";

export default async function webhookRoutes(app: FastifyInstance, ctx: AppContext) {
  const raw = (_req: unknown, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) =>
    done(null, body.toString());
  app.addContentTypeParser("application/json", { parseAs: "string" }, raw);
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, raw);
  app.post<{ Params: { provider: string }; Body: string }>(
    "/webhooks/payments/:provider",
    { bodyLimit: 256 * 1024 },
    async (req, reply) => {
      try {
        const { ack, outcome } = await receiveNotification({
          ctx,
          provider: req.params.provider,
          rawBody: typeof req.body === "string" ? req.body : "",
          headers: req.headers,
        });
        // JSON acknowledgements also carry what happened (providers ignore extra fields; our tests read it).
        const body = ack.contentType.startsWith("application/json")
          ? JSON.stringify({ ...JSON.parse(ack.body), outcome })
          : ack.body;
        return reply.status(ack.status).type(ack.contentType).send(body);
      } catch (err) {
        if (err instanceof AppError && (err.code === "bad_request" || err.code === "not_found")) {
          return reply.status(err.code === "not_found" ? 404 : 400).send({ error: err.params.reason ?? err.code });
        }
        throw err;
      }
    },
  );
}
