import { z } from "zod";
import type { Edition } from "../edition.ts";
import { NANO_PER_UNIT } from "../money.ts";
import { requiredText, vmsg } from "../validation.ts";
import { Verification } from "./orgs.ts";

/**
 * Organization verification (docs/product-spec.md §4, §6). The checks are pure so the console form and the server's
 * built-in provider run the same code.
 */

/**
 * The algorithm-filing authorization needs a cumulative cash recharge of at least ¥100 / $100 (docs/product-spec.md
 * §5).
 */
export const ALGORITHM_FILING_MIN_RECHARGE: Record<Edition, bigint> = {
  cn: 100n * NANO_PER_UNIT,
  global: 100n * NANO_PER_UNIT,
};

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = "10X98765432";

/**
 * A mainland China resident ID number (GB 11643-1999): 6 region digits, the birth date YYYYMMDD (a real date,
 * not in the future), 3 sequence digits and the ISO 7064 MOD 11-2 check character (0-9 or X).
 */
export function isMainlandIdNumber(value: string, today: Date = new Date()): boolean {
  const v = value.trim().toUpperCase();
  if (!/^[1-9]\d{16}[\dX]$/.test(v)) return false;
  const y = Number(v.slice(6, 10));
  const m = Number(v.slice(10, 12));
  const d = Number(v.slice(12, 14));
  const birth = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || birth.getUTCMonth() !== m - 1 || birth.getUTCDate() !== d || birth > today) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(v[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11] === v[17];
}

/** The 31 characters of a unified social credit code (GB 32100-2015: digits and capitals without I O S V Z). */
const USCC_CHARS = "0123456789ABCDEFGHJKLMNPQRTUWXY";
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The GB 32100 check character for the first 17 characters of a code, or null if one is not in the set. */
export function usccCheckCharacter(first17: string): string | null {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const n = USCC_CHARS.indexOf(first17[i] ?? "");
    if (n < 0) return null;
    sum += n * USCC_WEIGHTS[i]!;
  }
  const c = 31 - (sum % 31);
  return USCC_CHARS[c === 31 ? 0 : c]!;
}

/** A unified social credit code: 18 characters of the GB 32100 set whose last one is the check character. */
export function isUscc(value: string): boolean {
  const v = value.trim().toUpperCase();
  if (v.length !== 18) return false;
  return usccCheckCharacter(v.slice(0, 17)) === v[17];
}

const text = requiredText;

const optionalText = (max: number) => z.string().trim().max(max, vmsg("too_long", { max })).optional();

/**
 * Personal verification. cn: real name and the resident ID number. global: the name as in the passport (or
 * national identity document), its number, the issuing country (ISO 3166-1 alpha-2), the birth date and the
 * document's expiry date. The edition decides which checks apply (`personalVerificationProblems`).
 */
export const PersonalVerificationRequest = z.object({
  realName: text(64),
  idNumber: text(32),
  nationality: optionalText(2),
  dateOfBirth: optionalText(10),
  documentExpiry: optionalText(10),
});
export type PersonalVerificationRequest = z.infer<typeof PersonalVerificationRequest>;

/** Company verification: the credit code is a USCC on cn, the company registration / tax number on global. */
export const CompanyVerificationRequest = z.object({
  companyName: text(100),
  creditCode: text(32),
  bankAccountName: text(100),
  bankName: text(100),
  bankAccountNumber: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .regex(/^\d+$/, vmsg("digits_only"))
    .max(34, vmsg("too_long", { max: 34 })),
});
export type CompanyVerificationRequest = z.infer<typeof CompanyVerificationRequest>;

export type FieldProblem = { path: string; message: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
function parseDate(v: string | undefined): Date | null {
  if (!v || !DATE.test(v)) return null;
  const d = new Date(`${v}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v ? null : d;
}

/** Field problems of a personal application for the edition (message keys of validation.ts). */
export function personalVerificationProblems(
  edition: "cn" | "global",
  body: PersonalVerificationRequest,
  today: Date,
): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (edition === "cn") {
    if (!isMainlandIdNumber(body.idNumber, today)) out.push({ path: "idNumber", message: vmsg("id_number") });
    return out;
  }
  if (!/^[A-Za-z0-9]{6,20}$/.test(body.idNumber)) out.push({ path: "idNumber", message: vmsg("passport_number") });
  if (!/^[A-Za-z]{2}$/.test(body.nationality ?? "")) out.push({ path: "nationality", message: vmsg("country_code") });
  const birth = parseDate(body.dateOfBirth);
  const adult = new Date(today);
  adult.setUTCFullYear(adult.getUTCFullYear() - 18);
  if (!birth) out.push({ path: "dateOfBirth", message: vmsg("date_format") });
  else if (birth > adult) out.push({ path: "dateOfBirth", message: vmsg("adult_required") });
  const expiry = parseDate(body.documentExpiry);
  if (!expiry) out.push({ path: "documentExpiry", message: vmsg("date_format") });
  else if (expiry <= today) out.push({ path: "documentExpiry", message: vmsg("document_expired") });
  return out;
}

/** Field problems of a company application for the edition. */
export function companyVerificationProblems(
  edition: "cn" | "global",
  body: CompanyVerificationRequest,
): FieldProblem[] {
  if (edition === "cn") return isUscc(body.creditCode) ? [] : [{ path: "creditCode", message: vmsg("uscc") }];
  return /^[A-Za-z0-9][A-Za-z0-9 -]{3,29}$/.test(body.creditCode)
    ? []
    : [{ path: "creditCode", message: vmsg("registration_number") }];
}

export const VerificationApplication = z.object({
  id: z.string(),
  kind: z.enum(["personal", "company"]),
  status: z.enum(["pending", "approved", "rejected", "cancelled"]),
  /** What was entered; ID and bank account numbers are masked to their last 4 characters. */
  details: z.record(z.string(), z.string()),
  rejectReason: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type VerificationApplication = z.infer<typeof VerificationApplication>;

export const VerificationStatus = z.object({
  orgId: z.string(),
  state: Verification,
  /** Applications, newest first (at most 20). */
  applications: z.array(VerificationApplication),
  /** Whether the algorithm-filing authorization letter can be downloaded, and the recharge it needs. */
  filing: z.object({ allowed: z.boolean(), minRecharge: z.string(), cumulativeRecharge: z.string() }),
});
export type VerificationStatus = z.infer<typeof VerificationStatus>;

/** Operator decision on a pending company application. */
export const VerificationDecisionParams = z.object({ applicationId: z.string().min(1).max(64) });
export const RejectVerificationRequest = z.object({ reason: text(200) });
