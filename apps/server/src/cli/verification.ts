import { AppError } from "../lib/app-error.ts";
import { decideVerification, listPendingVerifications } from "../modules/verification/decide-verification.ts";
import { readDecisionArgs } from "./args.ts";
import type { CliCommand } from "./commands.ts";

/** The operator's review queue of verification applications (back-office screens come later). */
export const verificationQueueCommand: CliCommand = {
  name: "verification-queue",
  summary: "List verification applications waiting for an operator's review, oldest first",
  async run({ db, print }) {
    const rows = await listPendingVerifications({ ctx: { db } });
    if (rows.length === 0) {
      print("No applications are waiting for review.");
      return 0;
    }
    for (const r of rows) {
      print(
        `${r.id}  ${r.kind}  org ${r.orgId} (${r.orgName}, ${r.edition})  applied ${r.createdAt.toISOString()} by ${r.createdBy}`,
      );
      for (const [k, v] of Object.entries(r.details)) print(`    ${k}: ${v}`);
    }
    return 0;
  },
};

function decisionCommand(decision: "approve" | "reject"): CliCommand {
  const usage =
    decision === "approve"
      ? "Usage: npm run moonport -- approve-verification <application-id>"
      : 'Usage: npm run moonport -- reject-verification <application-id> --reason "<why, shown to the applicant>"';
  return {
    name: `${decision}-verification`,
    summary:
      decision === "approve"
        ? "Approve a pending verification application (a company one makes the organization a verified company)"
        : "Reject a pending verification application with a reason the applicant sees",
    async run({ services, args, print }) {
      const parsed = readDecisionArgs(args, decision === "reject");
      if (!parsed) {
        print(usage);
        return 2;
      }
      const { id, reason } = parsed;
      try {
        const out = await decideVerification({
          ctx: { db: services.db, log: services.log, clock: { now: () => new Date() } },
          applicationId: id,
          decision,
          reason,
          operator: "cli",
        });
        print(
          `${decision === "approve" ? "Approved" : "Rejected"} ${id}; organization ${out.orgId} is now ${out.state}.`,
        );
        return 0;
      } catch (err) {
        if (err instanceof AppError && err.code === "not_found") print(`No application ${JSON.stringify(id)}.`);
        else if (err instanceof AppError && err.code === "verification_not_pending") {
          print(`Application ${id} has already been decided; nothing changed.`);
        } else throw err;
        return 1;
      }
    },
  };
}

export const approveVerificationCommand = decisionCommand("approve");
export const rejectVerificationCommand = decisionCommand("reject");
