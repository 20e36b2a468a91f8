import { decideVerification, listPendingVerifications } from "../modules/verification/index.ts";
import type { CliCommand } from "./command.ts";
import { decisionCommand } from "./decision-command.ts";

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

function verificationDecision(decision: "approve" | "reject") {
  return decisionCommand({
    name: `${decision}-verification`,
    usage: decision === "approve" ? "<application-id>" : '<application-id> --reason "<why, shown to the applicant>"',
    noun: "application",
    reasonRequired: decision === "reject",
    summary:
      decision === "approve"
        ? "Approve a pending verification application (a company one makes the organization a verified company)"
        : "Reject a pending verification application with a reason the applicant sees",
    async decide({ services }, { id, reason }) {
      const out = await decideVerification({
        ctx: { db: services.db, log: services.log, clock: { now: () => new Date() } },
        applicationId: id,
        decision,
        reason,
        operator: "cli",
      });
      return `${decision === "approve" ? "Approved" : "Rejected"} ${id}; organization ${out.orgId} is now ${out.state}.`;
    },
  });
}

export const approveVerificationCommand = verificationDecision("approve");
export const rejectVerificationCommand = verificationDecision("reject");
