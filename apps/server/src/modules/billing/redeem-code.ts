/**
 * Voucher redemption codes (billing core: a redemption issues a voucher and may raise the tier). Codes are shown
 * once when an operator generates a batch; only their SHA-256 is stored (codes carry 80 random bits, so the hash
 * cannot be reversed by guessing), and a lookup hashes what the user typed, normalized (case, spaces, dashes).
 */
import { createHash, randomBytes } from "node:crypto";
import { type Edition, tierFor } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { getTierBasis } from "./balance.ts";
import { type BillingScope, issueVoucher } from "./credit.ts";
import { lockOrganizations } from "./lock-organizations.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, "");
}

export function hashCode(code: string): string {
  return createHash("sha256").update(normalizeCode(code)).digest("hex");
}

function newCode(): string {
  const bytes = randomBytes(16);
  const chars = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}-${chars.slice(12, 16)}`;
}

export interface CodeBatch {
  count: number;
  edition: Edition;
  amount: bigint;
  voucherType: "activity" | "recharge" | "register" | "kimiVIP" | "other";
  /** Validity of the voucher once redeemed. */
  voucherDays: number;
  /** When the unredeemed code stops working. */
  expiresAt: Date;
  minTier: number | null;
  operator: string;
}

/** Generates a batch; returns the plain codes (never stored) and the batch id. Recorded as an operator action. */
export async function generateRedemptionCodes(
  scope: BillingScope,
  batch: CodeBatch,
): Promise<{ batchId: string; codes: string[] }> {
  const batchId = newId("batch");
  const codes = Array.from({ length: batch.count }, newCode);
  await withTransaction({ db: scope.tx ?? scope.ctx.db, log: scope.ctx.log }, async (tx) => {
    await tx.insert(schema.redemptionCodes).values(
      codes.map((code) => ({
        id: newId("rc"),
        codeHash: hashCode(code),
        batchId,
        edition: batch.edition,
        amount: batch.amount,
        voucherType: batch.voucherType,
        voucherDays: batch.voucherDays,
        minTier: batch.minTier,
        expiresAt: batch.expiresAt,
        createdBy: batch.operator,
      })),
    );
    await tx.insert(schema.operatorActions).values({
      id: newId("opa"),
      actor: batch.operator,
      action: "voucher_codes.generate",
      target: batchId,
      details: {
        count: batch.count,
        edition: batch.edition,
        amount: batch.amount.toString(),
        voucherType: batch.voucherType,
        minTier: batch.minTier,
      },
    });
  });
  return { batchId, codes };
}

/**
 * Redeems a code for an organization: single use (the code row is locked and marked in the same transaction as
 * the voucher, whose ledger reference is the code id), not after it expires, only in its edition. A code with a
 * minimum tier raises the organization's tier floor to it (a floor, not a ceiling: later recharges still lift the
 * tier above it); the operator's own override stays untouched and, while set, still decides.
 */
export async function redeemCode(
  scope: BillingScope & { orgId: string; code: string; now: Date; userId: string },
): Promise<{ voucherId: string; tier: number }> {
  return withTransaction({ db: scope.tx ?? scope.ctx.db, log: scope.ctx.log }, async (tx) => {
    const [row] = await lockOrganizations(tx, [scope.orgId]).then(() =>
      tx.select().from(schema.organizations).where(eq(schema.organizations.id, scope.orgId)),
    );
    if (!row) throw new AppError("not_found");
    const org = await getTierBasis({ db: tx, org: row });
    const [code] = await tx
      .select()
      .from(schema.redemptionCodes)
      .where(eq(schema.redemptionCodes.codeHash, hashCode(scope.code)))
      .for("update");
    if (!code) throw new AppError("voucher_code_invalid");
    if (code.redeemedAt) throw new AppError("voucher_code_used");
    if (code.expiresAt.getTime() <= scope.now.getTime()) throw new AppError("voucher_code_expired");
    if (code.edition !== org.edition) throw new AppError("voucher_code_wrong_edition");
    await tx
      .update(schema.redemptionCodes)
      .set({ redeemedAt: scope.now, redeemedByOrg: org.id })
      .where(eq(schema.redemptionCodes.id, code.id));
    const { voucherId } = await issueVoucher({
      ...scope,
      tx,
      orgId: org.id,
      type: code.voucherType,
      amount: code.amount,
      expiresAt: new Date(scope.now.getTime() + code.voucherDays * DAY_MS),
      reference: code.id,
      note: `redemption code ${code.batchId}`,
      createdBy: scope.userId,
    });
    let tierFloor = org.tierFloor;
    if (code.minTier !== null && code.minTier > (tierFloor ?? -1)) {
      tierFloor = code.minTier;
      await tx.update(schema.organizations).set({ tierFloor }).where(eq(schema.organizations.id, org.id));
    }
    return { voucherId: voucherId!, tier: tierFor({ ...org, tierFloor }).tier };
  });
}
