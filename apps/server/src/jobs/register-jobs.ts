/**
 * Every background job of the app, defined once. Periodic schedules are declared here with their handlers; the
 * runner (jobs/runner.ts) keeps one database row per periodic job, so several instances run each occurrence once.
 */
import type { AppContext } from "../context.ts";
import { expireVouchers } from "../modules/billing/credit.ts";

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
}
