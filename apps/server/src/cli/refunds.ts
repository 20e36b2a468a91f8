import { formatMoney } from "@moonport/contracts";
import { approveRefund, listRefundQueue, rejectRefund } from "../modules/refunds/index.ts";
import type { CliCommand } from "./command.ts";
import { decisionCommand } from "./decision-command.ts";

/**
 * The operator's refund queue (also in the back office, Queues → Refunds). Approving here debits the cash and
 * queues the provider's refund for a running server's job runner; a corporate transfer's refund is paid back by
 * bank and marked done in the back office.
 */
export const refundQueueCommand: CliCommand = {
  name: "refund-queue",
  summary: "List refunds waiting for an operator (requested), in progress or failed, oldest first",
  async run({ db, print }) {
    const rows = await listRefundQueue({ ctx: { db } });
    if (rows.length === 0) {
      print("No refunds are waiting.");
      return 0;
    }
    for (const r of rows) {
      const x = r.refund;
      print(
        `${x.id}  ${x.status}  ${formatMoney(x.amount, x.currency)}  org ${x.orgId} (${r.orgName})  payment ${x.paymentId} (${r.paymentType}, ${r.provider})  requested ${x.createdAt.toISOString()}`,
      );
      if (x.reason) print(`    reason: ${x.reason}`);
      if (x.failureReason) print(`    failed: ${x.failureReason}`);
    }
    return 0;
  },
};

const refundServices = (opts: Pick<Parameters<CliCommand["run"]>[0], "services" | "config">) => ({
  ...opts.services,
  config: opts.config,
  clock: { now: () => new Date() },
});

export const approveRefundCommand = decisionCommand({
  name: "approve-refund",
  usage: "<refund-id> [--retry]",
  noun: "refund",
  summary: "Approve a requested refund: the cash leaves the balance and the provider refunds (a failed one: retry)",
  async decide(opts, { id }) {
    // A failed refund is retried by approving it again.
    const retry = opts.args.includes("--retry");
    await approveRefund({ ctx: refundServices(opts), refundId: id, operator: "cli", retry });
    return `Approved ${id}: the cash left the balance; a running server asks the provider to refund it.`;
  },
});

export const rejectRefundCommand = decisionCommand({
  name: "reject-refund",
  usage: '<refund-id> --reason "<why, shown to the organization and e-mailed to the requester>"',
  noun: "refund",
  reasonRequired: true,
  summary: "Reject a requested refund with a reason the organization sees (and the requester is e-mailed)",
  async decide(opts, { id, reason }) {
    await rejectRefund({ ctx: refundServices(opts), refundId: id, reason: reason!, operator: "cli" });
    return `Rejected ${id}; the amount is refundable again.`;
  },
});
