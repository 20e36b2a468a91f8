/**
 * The operator's review queue (CLI now, back-office screens later): pending applications oldest first, and
 * approve / reject with a reason. Approving a company application makes the organization `company`; rejecting
 * it reverts the organization to `personal` (it was personal before the change). A personal application is only
 * pending with the http provider's `review`; approving it makes the organization `personal`, rejecting leaves it
 * unverified. Each decision is an `operator_actions` row; deciding an application twice is refused.
 */
import { newId, schema } from "@moonport/db";
import { asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { lockOrganization } from "../billing/index.ts";

type Ctx = Pick<AppContext, "db" | "log" | "clock">;

export async function listPendingVerifications(opts: { ctx: Pick<AppContext, "db"> }) {
  return opts.ctx.db
    .select({
      id: schema.orgVerifications.id,
      orgId: schema.orgVerifications.orgId,
      orgName: schema.organizations.name,
      edition: schema.organizations.edition,
      kind: schema.orgVerifications.kind,
      details: schema.orgVerifications.details,
      createdBy: schema.orgVerifications.createdBy,
      createdAt: schema.orgVerifications.createdAt,
    })
    .from(schema.orgVerifications)
    .innerJoin(schema.organizations, eq(schema.organizations.id, schema.orgVerifications.orgId))
    .where(eq(schema.orgVerifications.status, "pending"))
    .orderBy(asc(schema.orgVerifications.createdAt));
}

export async function decideVerification(opts: {
  ctx: Ctx;
  applicationId: string;
  decision: "approve" | "reject";
  reason?: string;
  operator: string;
}): Promise<{ orgId: string; state: "unverified" | "personal" | "company" | "company_changing" }> {
  const { ctx, applicationId, decision, operator } = opts;
  if (decision === "reject" && !opts.reason?.trim()) throw new AppError("validation_failed");
  return withTransaction({ db: ctx.db, log: ctx.log }, async (tx) => {
    const [app] = await tx
      .select({ orgId: schema.orgVerifications.orgId })
      .from(schema.orgVerifications)
      .where(eq(schema.orgVerifications.id, applicationId));
    if (!app) throw new AppError("not_found");
    // Organization first, then the application: the same order as applying and cancelling.
    await lockOrganization(tx, app.orgId);
    const [row] = await tx
      .select()
      .from(schema.orgVerifications)
      .where(eq(schema.orgVerifications.id, applicationId))
      .for("update");
    if (row!.status !== "pending") throw new AppError("verification_not_pending");
    const now = ctx.clock.now();
    await tx
      .update(schema.orgVerifications)
      .set({
        status: decision === "approve" ? "approved" : "rejected",
        rejectReason: decision === "reject" ? opts.reason!.trim() : null,
        decidedBy: operator,
        decidedAt: now,
      })
      .where(eq(schema.orgVerifications.id, applicationId));
    const state =
      row!.kind === "company"
        ? decision === "approve"
          ? "company"
          : "personal"
        : decision === "approve"
          ? "personal"
          : "unverified";
    await tx.update(schema.organizations).set({ verification: state }).where(eq(schema.organizations.id, row!.orgId));
    await tx.insert(schema.operatorActions).values({
      id: newId("opa"),
      actor: operator,
      action: `verification.${decision}`,
      target: row!.orgId,
      details: { applicationId, kind: row!.kind, ...(opts.reason ? { reason: opts.reason.trim() } : {}) },
    });
    return { orgId: row!.orgId, state };
  });
}
