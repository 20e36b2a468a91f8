/**
 * Applying for organization verification (docs/product-spec.md §4): unverified → personal → (company change in
 * progress) → company. Only a personal verification can change to a company one, so a company application needs
 * the personal state; it puts the organization in `company_changing` until it is decided (cancel-verification.ts,
 * decide-verification.ts).
 *
 * Order of work: bad input is refused before anything (field errors, nothing recorded); the state is checked,
 * then the provider is asked outside any transaction (it may be a remote service), then one transaction locks the
 * organization, checks the state again (a concurrent application may have won) and records the application with
 * the state change. A rejection is recorded (the applicant sees it in the history) and answered with the §8
 * "authentication failed: {reason}" message.
 */
import {
  type CompanyVerificationRequest,
  companyVerificationProblems,
  type PersonalVerificationRequest,
  personalVerificationProblems,
  type VerificationStatus,
} from "@moonport/contracts";
import { newId, schema, type Tx } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, Organization } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { lockOrganization } from "../billing/index.ts";
import { getVerification } from "./get-verification.ts";
import { verificationProvider } from "./provider.ts";

type State = Organization["verification"];

/** The refusal for applying `kind` in `state`, or null when allowed. */
function transitionRefusal(kind: "personal" | "company", state: State): AppError | null {
  if (kind === "personal") return state === "unverified" ? null : new AppError("verification_already_verified");
  if (state === "personal") return null;
  if (state === "unverified") return new AppError("verification_needs_personal");
  if (state === "company_changing") return new AppError("verification_in_review");
  return new AppError("verification_already_verified");
}

async function apply(opts: {
  ctx: AppContext;
  access: OrgAccess;
  kind: "personal" | "company";
  details: Record<string, string>;
}): Promise<VerificationStatus> {
  const { ctx, access, kind, details } = opts;
  const refusal = transitionRefusal(kind, access.org.verification);
  if (refusal) throw refusal;
  const applicationId = newId("ver");
  const decision = await verificationProvider(ctx).decide({
    applicationId,
    orgId: access.org.id,
    edition: access.org.edition,
    kind,
    details,
  });
  if (decision.decision === "unavailable") throw new AppError("verification_unavailable");
  const now = ctx.clock.now();
  const status =
    decision.decision === "approved" ? "approved" : decision.decision === "rejected" ? "rejected" : "pending";
  await withTransaction({ db: ctx.db, log: ctx.log }, async (tx) => {
    const org = await lockOrganization(tx, access.org.id);
    const again = transitionRefusal(kind, org.verification);
    if (again) throw again;
    // One application under review at a time (a personal one can be pending with the http provider).
    await assertNoPending(tx, org.id);
    await tx.insert(schema.orgVerifications).values({
      id: applicationId,
      orgId: org.id,
      kind,
      status,
      details,
      provider: verificationProvider(ctx).name,
      providerRef: decision.reference ?? null,
      rejectReason: decision.decision === "rejected" ? decision.reason : null,
      createdBy: access.userId,
      decidedBy: status === "pending" ? null : verificationProvider(ctx).name,
      decidedAt: status === "pending" ? null : now,
    });
    const next: State | null =
      status === "approved" ? kind : status === "pending" && kind === "company" ? "company_changing" : null;
    if (next)
      await tx.update(schema.organizations).set({ verification: next }).where(eq(schema.organizations.id, org.id));
  });
  if (decision.decision === "rejected") {
    throw new AppError("verification_rejected", { params: { reason: decision.reason } });
  }
  return getVerification({ ctx, access });
}

async function assertNoPending(tx: Tx, orgId: string): Promise<void> {
  const rows = await tx
    .select({ status: schema.orgVerifications.status })
    .from(schema.orgVerifications)
    .where(eq(schema.orgVerifications.orgId, orgId));
  if (rows.some((r) => r.status === "pending")) throw new AppError("verification_in_review");
}

export async function applyPersonalVerification(opts: {
  ctx: AppContext;
  access: OrgAccess;
  body: PersonalVerificationRequest;
}): Promise<VerificationStatus> {
  const { ctx, access, body } = opts;
  const problems = personalVerificationProblems(access.org.edition, body, ctx.clock.now());
  if (problems.length) throw new AppError("validation_failed", { details: problems });
  const details: Record<string, string> = { realName: body.realName, idNumber: body.idNumber.toUpperCase() };
  if (access.org.edition === "global") {
    details.nationality = body.nationality!.toUpperCase();
    details.dateOfBirth = body.dateOfBirth!;
    details.documentExpiry = body.documentExpiry!;
  }
  return apply({ ctx, access, kind: "personal", details });
}

export async function applyCompanyVerification(opts: {
  ctx: AppContext;
  access: OrgAccess;
  body: CompanyVerificationRequest;
}): Promise<VerificationStatus> {
  const { ctx, access, body } = opts;
  const problems = companyVerificationProblems(access.org.edition, body);
  if (problems.length) throw new AppError("validation_failed", { details: problems });
  return apply({
    ctx,
    access,
    kind: "company",
    details: {
      companyName: body.companyName,
      creditCode: body.creditCode.toUpperCase(),
      bankAccountName: body.bankAccountName,
      bankName: body.bankName,
      bankAccountNumber: body.bankAccountNumber,
    },
  });
}
