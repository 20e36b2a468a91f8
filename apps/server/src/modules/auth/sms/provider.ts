import { type Db, newId, schema } from "@moonport/db";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../../env.ts";

export interface SmsMessage {
  /** E.164 */
  phone: string;
  text: string;
  /** The verification code inside `text`; only the development provider keeps it (for its outbox). */
  code?: string;
}

/** Where SMS go. `send` resolves once the provider accepted the message and throws SmsSendError otherwise. */
export interface SmsProvider {
  readonly kind: "dev" | "http";
  send(message: SmsMessage): Promise<void>;
}

export class SmsSendError extends Error {
  constructor(readonly reason: string) {
    super(`SMS send failed: ${reason}`);
    this.name = "SmsSendError";
  }
}

/**
 * Development provider (the default; env.ts refuses it in production). Codes never go to the log, which an
 * exposed server's operators and log shippers read: with DEV_SEAMS=true they go to the sms_outbox table, read
 * from this machine at GET /api/dev/sms-outbox; without it nothing can deliver the code, so sending fails
 * (the user is told, nothing is counted) and the log says how to receive codes.
 */
function devSmsProvider(opts: { db: Db; log: FastifyBaseLogger; outbox: boolean }): SmsProvider {
  return {
    kind: "dev",
    async send({ phone, text, code }) {
      if (!opts.outbox) {
        opts.log.warn(
          { sms: { phone } },
          "dev SMS provider: code not delivered; set DEV_SEAMS=true to read codes at /api/dev/sms-outbox from this machine, or configure SMS_PROVIDER=http",
        );
        throw new SmsSendError("no SMS provider is configured");
      }
      await opts.db.insert(schema.smsOutbox).values({ id: newId("sms"), phone, text, code: code ?? null });
      opts.log.info({ sms: { phone } }, "dev SMS provider: code in GET /api/dev/sms-outbox (loopback only)");
    },
  };
}

/** HTTP provider: POSTs `{phone, text}` as JSON with `Authorization: Bearer <token>`; any 2xx is success. */
export function httpSmsProvider(opts: { url: string; token?: string; timeoutMs?: number }): SmsProvider {
  return {
    kind: "http",
    async send({ phone, text }) {
      let res: Response;
      try {
        res = await fetch(opts.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          },
          body: JSON.stringify({ phone, text }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
      } catch (e) {
        throw new SmsSendError(
          e instanceof Error && e.name === "TimeoutError" ? "provider timed out" : "provider unreachable",
        );
      }
      // Drain the body so the connection is reused.
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new SmsSendError(`provider answered HTTP ${res.status}`);
    },
  };
}

export function createSmsProvider(opts: { config: Config; db: Db; log: FastifyBaseLogger }): SmsProvider {
  const { sms } = opts.config;
  if (sms.provider === "http") {
    // env.ts guarantees the URL when the provider is http.
    return httpSmsProvider({ url: sms.httpUrl!, token: sms.httpToken });
  }
  return devSmsProvider({ db: opts.db, log: opts.log, outbox: opts.config.devSeams });
}
