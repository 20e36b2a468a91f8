/**
 * The mail seam: every e-mail of the app (alerts today; invoices and contact-sales replies later) goes through a
 * `Mailer`. Modules do not call it directly: they render a template (mail/templates.ts) and `enqueueMail` it, so a
 * send is a durable job, retried with backoff when the SMTP server is away, and commits with the change that
 * caused it. Two transports: "smtp" (nodemailer) and "dev", which keeps messages in `mail_outbox` for the loopback
 * GET /api/dev/mail-outbox (like the SMS outbox).
 */
import type { Db } from "@moonport/db";
import { newId, schema } from "@moonport/db";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Config } from "../env.ts";

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /**
   * Files to attach, by their key in the generated-files store (ctx.exportFiles): the job payload stays small and
   * the file is read when the e-mail is sent (an issued invoice's PDF).
   */
  attachments?: { filename: string; contentType: string; storageKey: string }[];
}

/** What a transport sends: the message with its attachments read into memory. */
export type OutgoingMail = Omit<MailMessage, "attachments"> & {
  attachments?: { filename: string; contentType: string; content: Buffer }[];
};

export interface Mailer {
  readonly transport: "dev" | "smtp";
  send(msg: OutgoingMail): Promise<void>;
  close(): void;
}

export function createMailer(opts: { config: Config; db: Db; log: FastifyBaseLogger }): Mailer {
  const { mail } = opts.config;
  if (mail.transport === "smtp") {
    const transporter = nodemailer.createTransport({
      host: mail.host,
      port: mail.port,
      secure: mail.secure,
      auth: mail.user ? { user: mail.user, pass: mail.pass ?? "" } : undefined,
      // A stuck server must not hold a job's lease for minutes.
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    });
    return {
      transport: "smtp",
      async send(msg) {
        await transporter.sendMail({
          from: mail.from,
          to: msg.to,
          subject: msg.subject,
          text: msg.text,
          html: msg.html,
          attachments: msg.attachments,
        });
      },
      close: () => transporter.close(),
    };
  }
  if (opts.config.nodeEnv === "production") {
    opts.log.warn("MAIL_TRANSPORT=dev in production: e-mails are kept in the database outbox, not sent");
  }
  return {
    transport: "dev",
    async send(msg) {
      const { attachments, ...stored } = msg;
      await opts.db.insert(schema.mailOutbox).values({ id: newId("mail"), ...stored });
      opts.log.info(
        { to: msg.to, subject: msg.subject, attachments: attachments?.map((a) => a.filename) },
        "dev mail outbox",
      );
    },
    close() {},
  };
}
