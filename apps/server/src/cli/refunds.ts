import { formatMoney } from "@moonport/contracts";
import { AppError } from "../lib/app-error.ts";
import { approveRefund, listRefundQueue, rejectRefund } from "../modules/refunds/manage-refund.ts";
import { readDecisionArgs } from "./args.ts";
import type { CliCommand } from "./commands.ts";

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

function decisionCommand(decision: "approve" | "reject"): CliCommand {
  const usage =
    decision === "approve"
      ? "Usage: npm run moonport -- approve-refund <refund-id> [--retry]"
      : 'Usage: npm run moonport -- reject-refund <refund-id> --reason "<why, shown to the organization>"';
  return {
    name: `${decision}-refund`,
    summary:
      decision === "approve"
        ? "Approve a requested refund: the cash leaves the balance and the provider refunds (a failed one: retry)"
        : "Reject a requested refund with a reason the organization sees",
    async run({ services, args, print }) {
      const parsed = readDecisionArgs(args, decision === "reject");
      if (!parsed) {
        print(usage);
        return 2;
      }
      const { id, reason } = parsed;
      const ctx = { ...services, clock: { now: () => new Date() } };
      try {
        if (decision === "reject") await rejectRefund({ ctx, refundId: id, reason: reason!, operator: "cli" });
        else {
          // A failed refund is retried by approving it again.
          const retry = args.includes("--retry");
          await approveRefund({ ctx, refundId: id, operator: "cli", retry });
        }
        print(
          decision === "approve"
            ? `Approved ${id}: the cash left the balance; a running server asks the provider to refund it.`
            : `Rejected ${id}; the amount is refundable again.`,
        );
        return 0;
      } catch (err) {
        if (err instanceof AppError && err.code === "not_found") print(`No refund ${JSON.stringify(id)}.`);
        else if (err instanceof AppError && err.code.startsWith("refund_")) {
          print(`Refund ${id} was not changed: ${err.code} ${JSON.stringify(err.params)}`);
        } else throw err;
        return 1;
      }
    },
  };
}

export const approveRefundCommand = decisionCommand("approve");
export const rejectRefundCommand = decisionCommand("reject");
