import type { Tx } from "@moonport/db";
import type { AppContext } from "../context.ts";
import { enqueueJob } from "../jobs/runner.ts";
import type { MailMessage } from "./mailer.ts";

export const MAIL_JOB = "mail.send";

/**
 * Sends an e-mail through the durable job `mail.send` (retried with backoff while the SMTP server refuses). With
 * `tx`, the e-mail exists exactly when the caller's change commits.
 */
export async function enqueueMail(
  ctx: Pick<AppContext, "db" | "clock">,
  msg: MailMessage,
  opts: { tx?: Tx; key?: string } = {},
) {
  return enqueueJob(ctx, { name: MAIL_JOB, payload: msg, key: opts.key, maxAttempts: 12 }, { tx: opts.tx });
}
