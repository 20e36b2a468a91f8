import type { VerificationStatus } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { lockOrganization } from "../billing/index.ts";
import { getVerification } from "./get-verification.ts";

/**
 * Cancels a company change in progress: the pending company application is `cancelled` and the organization is
 * personal again (§4). Anything else — no change in progress, or the operator decided first — is the §8
 * "cancel failed" and changes nothing.
 */
export async function cancelCompanyChange(opts: { ctx: AppContext; access: OrgAccess }): Promise<VerificationStatus> {
  const { ctx, access } = opts;
  await withTransaction({ db: ctx.db, log: ctx.log }, async (tx) => {
    const org = await lockOrganization(tx, access.org.id);
    if (org.verification !== "company_changing") throw new AppError("verification_cancel_failed");
    const cancelled = await tx
      .update(schema.orgVerifications)
      .set({ status: "cancelled", decidedAt: ctx.clock.now(), decidedBy: access.userId })
      .where(
        and(
          eq(schema.orgVerifications.orgId, org.id),
          eq(schema.orgVerifications.kind, "company"),
          eq(schema.orgVerifications.status, "pending"),
        ),
      )
      .returning({ id: schema.orgVerifications.id });
    if (cancelled.length === 0) throw new AppError("verification_cancel_failed");
    await tx.update(schema.organizations).set({ verification: "personal" }).where(eq(schema.organizations.id, org.id));
  });
  return getVerification({ ctx, access });
}
