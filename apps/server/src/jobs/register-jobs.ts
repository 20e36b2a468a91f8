/**
 * Every background job of the app, defined once. Periodic schedules are declared here with their handlers; the
 * runner (jobs/runner.ts) keeps one database row per periodic job, so several instances run each occurrence once.
 */
import { buffer } from "node:stream/consumers";
import { EDITION_TIME_ZONE, EDITIONS, PAYMENT_CLOSE_AFTER_MS } from "@moonport/contracts";
import type { AppContext } from "../context.ts";
import { MAIL_JOB } from "../mail/enqueue-mail.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { evaluateAlerts } from "../modules/alerts/index.ts";
import { closeUnpaidPayments, expireVouchers } from "../modules/billing/index.ts";
import { EXPORT_JOB, finalizeBillDays, runBillExport, summarizeBillRanges } from "../modules/bills/index.ts";
import { PREPARE_JOB, prepareCache, runCacheStorage, STORAGE_JOB } from "../modules/caches/index.ts";
import { EXTRACT_JOB, extractFile } from "../modules/files/index.ts";
import {
  AUTO_ISSUE_JOB,
  autoIssueInvoice,
  expireRedLetters,
  RED_LETTER_TIMEOUT_JOB,
} from "../modules/invoices/index.ts";
import { NOTIFY_JOB, receiveNotification, SANDBOX, SIGNATURE_HEADER } from "../modules/payments/index.ts";
import {
  EXECUTE_ATTEMPTS,
  EXECUTE_JOB,
  executeRefund,
  POLL_JOB,
  type PollPayload,
  pollRefund,
} from "../modules/refunds/index.ts";

export function registerJobs(ctx: AppContext) {
  // Expired vouchers are written off with ledger entries soon after they expire (issue: vouchers).
  ctx.jobs.periodic({
    name: "billing.expire-vouchers",
    schedule: { everyMinutes: 1 },
    async handler(_payload, { now }) {
      const n = await expireVouchers({ ctx, now });
      if (n) ctx.log.info({ vouchers: n }, "expired vouchers written off");
    },
  });

  // Daily bills become final at 07:00 of the next day, in each edition's own zone.
  for (const edition of EDITIONS) {
    ctx.jobs.periodic({
      name: `bills.finalize-days.${edition}`,
      schedule: { dailyAt: "07:00", timeZone: EDITION_TIME_ZONE[edition] },
      async handler(_payload, { now }) {
        const n = await finalizeBillDays({ ctx, edition, now });
        if (n) ctx.log.info({ edition, days: n }, "daily bills finalized");
      },
    });
  }

  // PGlite has no autovacuum: the bill table's BRIN ranges are summarised here (modules/bills/summarize-bill-ranges).
  if (ctx.database.kind === "pglite") {
    ctx.jobs.periodic({
      name: "bills.summarize-ranges",
      schedule: { everyMinutes: 5 },
      async handler() {
        await summarizeBillRanges(ctx);
      },
    });
  }

  ctx.jobs.define<{ exportId: string }>({
    name: EXPORT_JOB,
    maxAttempts: 5,
    async handler(payload, { job }) {
      await runBillExport({ ctx, exportId: payload.exportId, lastAttempt: job.attempts >= 5 });
    },
  });

  // Alerts are evaluated off the gateway's path, once a minute.
  ctx.jobs.periodic({
    name: "alerts.evaluate",
    schedule: { everyMinutes: 1 },
    async handler(_payload, { now }) {
      const n = await evaluateAlerts({ ctx, now });
      if (n) ctx.log.info({ emails: n }, "alert e-mails queued");
    },
  });

  // Refunds: the provider is asked after the approval committed (the cash already left the balance), retried
  // with the same idempotency key until it answers; the last attempt fails the refund and gives the cash back.
  ctx.jobs.define<{ refundId: string; attempt: number }>({
    name: EXECUTE_JOB,
    maxAttempts: EXECUTE_ATTEMPTS,
    async handler(payload, { job }) {
      await executeRefund(ctx, { ...payload, lastAttempt: job.attempts >= EXECUTE_ATTEMPTS });
    },
  });

  // A refund the provider answered `pending` is asked about again until it settles (or its webhook comes first).
  ctx.jobs.define<PollPayload>({
    name: POLL_JOB,
    async handler(payload) {
      await pollRefund(ctx, payload);
    },
  });

  ctx.jobs.define<MailMessage>({
    name: MAIL_JOB,
    maxAttempts: 12,
    async handler(msg) {
      const attachments = await Promise.all(
        (msg.attachments ?? []).map(async (a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: await buffer(await ctx.exportFiles.open(a.storageKey)),
        })),
      );
      await ctx.mailer.send({ ...msg, attachments: attachments.length ? attachments : undefined });
    },
  });

  // Context caches: pending → ready (creation billed once), then storage billed per started minute while ready.
  ctx.jobs.define<{ cacheId: string }>({
    name: PREPARE_JOB,
    async handler(payload) {
      await prepareCache(ctx, payload.cacheId);
    },
  });
  ctx.jobs.periodic({
    name: STORAGE_JOB,
    schedule: { everyMinutes: 1 },
    async handler(_payload, { now }) {
      const r = await runCacheStorage(ctx, now);
      if (r.minutes || r.expired) ctx.log.info(r, "context cache storage billed");
    },
  });

  // Unpaid recharge orders close a day after they were created (docs/product-spec.md §4, §9).
  ctx.jobs.periodic({
    name: "payments.close-unpaid",
    schedule: { everyMinutes: 1 },
    async handler(_payload, { now }) {
      const n = await closeUnpaidPayments({ ctx, before: new Date(now.getTime() - PAYMENT_CLOSE_AFTER_MS), now });
      if (n) ctx.log.info({ payments: n }, "unpaid payments closed");
    },
  });
  // The sandbox PSP's webhook delivery: retried with backoff until our endpoint accepts it, like a real PSP.
  ctx.jobs.define<{ body: string; signature: string }>({
    name: NOTIFY_JOB,
    async handler(payload) {
      await receiveNotification({
        ctx,
        provider: SANDBOX,
        rawBody: payload.body,
        headers: { [SIGNATURE_HEADER]: payload.signature },
      });
    },
  });

  // Invoices: automatic issuing (INVOICE_AUTO_ISSUE) and the 72-hour red-letter confirmation timeout (§9).
  ctx.jobs.define<{ invoiceId: string }>({
    name: AUTO_ISSUE_JOB,
    maxAttempts: 5,
    handler: (payload) => autoIssueInvoice(ctx, payload.invoiceId),
  });
  ctx.jobs.periodic({
    name: RED_LETTER_TIMEOUT_JOB,
    schedule: { everyMinutes: 1 },
    async handler(_payload, { now }) {
      const n = await expireRedLetters({ ctx, now });
      if (n) ctx.log.info({ rounds: n }, "red-letter confirmations timed out");
    },
  });

  // Text extraction of an uploaded file (modules/files): enqueued with the file's row, so a restart resumes it.
  ctx.jobs.define<{ fileId: string }>({
    name: EXTRACT_JOB,
    maxAttempts: 5,
    handler: (payload) => extractFile(ctx, payload.fileId),
  });
}
