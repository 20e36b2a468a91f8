import { ALGORITHM_FILING_MIN_RECHARGE, type VerificationStatus } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { getTierBasis } from "../billing/index.ts";

/** Fields shown only by their last 4 characters outside the operator's review (ID and bank account numbers). */
const MASKED = new Set(["idNumber", "bankAccountNumber"]);

function maskDetails(details: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(details)) out[k] = MASKED.has(k) ? `••••${v.slice(-4)}` : v;
  return out;
}

/** The organization's verification state, its applications (newest first) and whether filing is possible. */
export async function getVerification(opts: {
  ctx: Pick<AppContext, "db">;
  access: OrgAccess;
}): Promise<VerificationStatus> {
  const { db } = opts.ctx;
  const [row] = await db.select().from(schema.organizations).where(eq(schema.organizations.id, opts.access.org.id));
  const org = await getTierBasis({ db, org: row! });
  const rows = await db
    .select()
    .from(schema.orgVerifications)
    .where(eq(schema.orgVerifications.orgId, org.id))
    .orderBy(desc(schema.orgVerifications.createdAt), desc(schema.orgVerifications.id))
    .limit(20);
  const min = ALGORITHM_FILING_MIN_RECHARGE[org.edition];
  return {
    orgId: org.id,
    state: org.verification,
    applications: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.status,
      details: maskDetails(r.details),
      rejectReason: r.rejectReason,
      createdBy: r.createdBy,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
    })),
    filing: {
      allowed: org.verification === "company" && org.cumulativeRecharge >= min,
      minRecharge: min.toString(),
      cumulativeRecharge: org.cumulativeRecharge.toString(),
    },
  };
}
