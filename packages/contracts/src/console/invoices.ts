/**
 * Invoices (docs/product-spec.md §3 Invoice, §4 invoice and red-letter states, §5 invoice rules, §9 tax rate):
 * cn VAT invoices over paid recharges with saved titles and red-letter voiding, and the global edition's
 * international invoice information and per-order GST invoices.
 */
import { z } from "zod";
import { Currency } from "../edition.ts";
import type { Localized } from "../locale.ts";
import { NANO_PER_UNIT } from "../money.ts";
import { requiredText, vmsg } from "../validation.ts";
import { PayType } from "./billing.ts";
import { Nanos } from "./common.ts";
import { ContactEmail } from "./support.ts";
import { isUscc } from "./verification.ts";

/** The cn VAT rate of §9 for the platform's service, in basis points (900 = 9 %). */
export const VAT_RATE_BP = 900;

const CENT = NANO_PER_UNIT / 100n;

/**
 * Splits a tax-inclusive gross amount into net and tax, once, from exact money. The rule (stated on the invoice
 * and in apps/server/src/modules/invoices/README.md): the gross is whole cents; net = gross / (1 + rate), rounded half
 * up to the cent; tax = gross − net. So net + tax = gross exactly, and the tax is within half a cent of net × rate.
 * `rateBp` is the rate in basis points (900 = 9 %).
 */
export function splitTax(gross: bigint, rateBp: number): { net: bigint; tax: bigint } {
  if (gross < 0n || gross % CENT !== 0n) throw new RangeError("the gross must be a non-negative number of cents");
  if (!Number.isInteger(rateBp) || rateBp < 0) throw new RangeError("the rate must be whole basis points");
  const cents = gross / CENT;
  const denominator = 10_000n + BigInt(rateBp);
  // half up: floor((2·cents·10000 + denominator) / (2·denominator))
  const netCents = (2n * cents * 10_000n + denominator) / (2n * denominator);
  const net = netCents * CENT;
  return { net, tax: gross - net };
}

/** "9" / "9.5" for a rate of basis points. */
export function formatRate(rateBp: number): string {
  const whole = Math.trunc(rateBp / 100);
  const frac = String(rateBp % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}

export const InvoiceStatus = z.enum(["waiting", "success", "failed", "refunding", "refunded", "imported", "invalid"]);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

/** Each invoice status with what it means (shown in the records and the back office). */
export const INVOICE_STATUS_TEXT: Record<InvoiceStatus, { label: Localized; meaning: Localized }> = {
  waiting: {
    label: { "en-US": "Processing", "zh-CN": "开票中" },
    meaning: {
      "en-US": "Applied for; the platform issues it within 3–7 working days (electronic: about 10 minutes).",
      "zh-CN": "已申请，平台将在 3–7 个工作日内开具（电子发票约 10 分钟）。",
    },
  },
  success: {
    label: { "en-US": "Issued", "zh-CN": "已开票" },
    meaning: {
      "en-US": "Issued; the PDF was e-mailed and can be downloaded.",
      "zh-CN": "已开具，PDF 已发送至邮箱，也可在此下载。",
    },
  },
  failed: {
    label: { "en-US": "Failed", "zh-CN": "开票失败" },
    meaning: {
      "en-US": "Not issued (see the reason); the amount can be invoiced again.",
      "zh-CN": "未能开具（见原因），该金额可重新申请开票。",
    },
  },
  refunding: {
    label: { "en-US": "Voiding", "zh-CN": "红冲中" },
    meaning: {
      "en-US": "A red-letter voiding is in progress; see its confirmation state.",
      "zh-CN": "红字冲销进行中，请查看红字确认单状态。",
    },
  },
  refunded: {
    label: { "en-US": "Voided", "zh-CN": "已红冲" },
    meaning: {
      "en-US": "Voided by a red-letter invoice; the amount can be invoiced again or refunded.",
      "zh-CN": "已开具红字发票冲销，该金额可重新开票或退款。",
    },
  },
  imported: {
    label: { "en-US": "Imported", "zh-CN": "已导入" },
    meaning: {
      "en-US": "Issued outside the platform and recorded by the operator.",
      "zh-CN": "在平台外开具，由运营人员录入。",
    },
  },
  invalid: {
    label: { "en-US": "Withdrawn", "zh-CN": "已作废" },
    meaning: {
      "en-US": "The application was withdrawn before it was issued; nothing was issued.",
      "zh-CN": "申请在开具前已撤回，未开具发票。",
    },
  },
};

export const RedLetterState = z.enum(["01", "02", "03", "04", "05", "06", "07", "08", "09"]);
export type RedLetterState = z.infer<typeof RedLetterState>;

/** §4's red-letter confirmation states with what each means here (the platform is the seller). */
export const RED_LETTER_STATE_TEXT: Record<RedLetterState, Localized> = {
  "01": {
    "en-US": "01 No confirmation needed (personal title): the platform issues the red-letter invoice.",
    "zh-CN": "01 无需确认（个人抬头）：平台将开具红字发票。",
  },
  "02": {
    "en-US": "02 Entered by the seller, awaiting the buyer's confirmation.",
    "zh-CN": "02 销方录入待购方确认。",
  },
  "03": {
    "en-US": "03 Entered by the buyer, awaiting the seller's confirmation.",
    "zh-CN": "03 购方录入待销方确认。",
  },
  "04": {
    "en-US": "04 Confirmed by both: the platform issues the red-letter invoice.",
    "zh-CN": "04 购销双方已确认：平台将开具红字发票。",
  },
  "05": { "en-US": "05 Void: the buyer denied it.", "zh-CN": "05 作废（销方录入购方否认）。" },
  "06": { "en-US": "06 Void: the seller denied it.", "zh-CN": "06 作废（购方录入销方否认）。" },
  "07": {
    "en-US": "07 Void: not confirmed within 72 hours.",
    "zh-CN": "07 作废（超 72 小时未确认）。",
  },
  "08": { "en-US": "08 Void: withdrawn by its initiator.", "zh-CN": "08 作废（发起方已撤销）。" },
  "09": {
    "en-US": "09 Void: withdrawn after both had confirmed.",
    "zh-CN": "09 作废（确认后撤销）。",
  },
};

/**
 * The global edition voids an invoice with a credit note instead of a red-letter invoice, through the same
 * confirmation states; only the words that name the document differ.
 */
const CREDIT_NOTE_STATUS_TEXT: Partial<Record<InvoiceStatus, { label: Localized; meaning: Localized }>> = {
  waiting: {
    label: INVOICE_STATUS_TEXT.waiting.label,
    meaning: {
      "en-US": "Requested; the platform issues it within 3 working days.",
      "zh-CN": "已申请，平台将在 3 个工作日内开具。",
    },
  },
  refunding: {
    label: { "en-US": "Voiding", "zh-CN": "冲销中" },
    meaning: {
      "en-US": "Voiding by a credit note is in progress; see its confirmation state.",
      "zh-CN": "正在以贷项通知单（credit note）冲销，请查看确认状态。",
    },
  },
  refunded: {
    label: { "en-US": "Voided", "zh-CN": "已冲销" },
    meaning: {
      "en-US": "Voided by a credit note; the amount can be invoiced again or refunded.",
      "zh-CN": "已开具贷项通知单冲销，该金额可重新开票或退款。",
    },
  },
};
const CREDIT_NOTE_STATE_TEXT: Partial<Record<RedLetterState, Localized>> = {
  "01": {
    "en-US": "01 No confirmation needed (individual): the platform issues the credit note.",
    "zh-CN": "01 无需确认（个人）：平台将开具贷项通知单。",
  },
  "04": {
    "en-US": "04 Confirmed by both: the platform issues the credit note.",
    "zh-CN": "04 双方已确认：平台将开具贷项通知单。",
  },
};

/** An invoice status's label and meaning in the invoice's edition (known by its currency). */
export function invoiceStatusText(status: InvoiceStatus, currency: Currency) {
  return (currency === "USD" ? CREDIT_NOTE_STATUS_TEXT[status] : undefined) ?? INVOICE_STATUS_TEXT[status];
}

/**
 * 01 and 04 say what the platform is about to do; once it issued the voiding document the round is closed in the
 * same state, and these say it was done.
 */
const ISSUED_STATE_TEXT: Record<"cn" | "global", Partial<Record<RedLetterState, Localized>>> = {
  cn: {
    "01": {
      "en-US": "01 No confirmation needed (personal title): the red-letter invoice was issued.",
      "zh-CN": "01 无需确认（个人抬头）：已开具红字发票。",
    },
    "04": {
      "en-US": "04 Confirmed by both: the red-letter invoice was issued.",
      "zh-CN": "04 购销双方已确认：已开具红字发票。",
    },
  },
  global: {
    "01": {
      "en-US": "01 No confirmation needed (individual): the credit note was issued.",
      "zh-CN": "01 无需确认（个人）：已开具贷项通知单。",
    },
    "04": {
      "en-US": "04 Confirmed by both: the credit note was issued.",
      "zh-CN": "04 双方已确认：已开具贷项通知单。",
    },
  },
};

/**
 * A voiding round's state in the invoice's edition: red-letter invoice (cn) or credit note (global). A round in
 * 01 or 04 that is closed ended with the document issued (the other ways out move it to 05–09).
 */
export function redLetterStateText(
  round: { state: RedLetterState; closedAt: string | null },
  currency: Currency,
): Localized {
  const { state } = round;
  const issued = round.closedAt !== null ? ISSUED_STATE_TEXT[currency === "USD" ? "global" : "cn"][state] : undefined;
  return issued ?? (currency === "USD" ? CREDIT_NOTE_STATE_TEXT[state] : undefined) ?? RED_LETTER_STATE_TEXT[state];
}

/** Red-letter confirmation times out after 72 hours (§9). */
export const RED_LETTER_TIMEOUT_MS = 72 * 60 * 60 * 1000;

const text = requiredText;
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, vmsg("too_long", { max }))
    .optional()
    .transform((v) => (v ? v : undefined));

/** Same rule as every e-mail field of the console (required, at most 254 characters, valid). */
const InvoiceEmail = ContactEmail;

export const TitleType = z.enum(["personal", "company"]);
export type TitleType = z.infer<typeof TitleType>;
export const InvoiceType = z.enum(["general", "special"]);
export type InvoiceType = z.infer<typeof InvoiceType>;
export const InvoiceMethod = z.enum(["electronic", "paper"]);
export type InvoiceMethod = z.infer<typeof InvoiceMethod>;

/**
 * A saved invoice title. A company title needs its USCC (GB 32100 check character); the bank and address fields
 * are optional here and required by a special VAT invoice (`invoiceProblems`).
 */
export const InvoiceTitleRequest = z
  .object({
    titleType: TitleType,
    title: text(100),
    uscc: optionalText(18),
    bankName: optionalText(100),
    bankAccount: z
      .string()
      .trim()
      .max(34, vmsg("too_long", { max: 34 }))
      .regex(/^\d*$/, vmsg("digits_only"))
      .optional()
      .transform((v) => (v ? v : undefined)),
    companyAddress: optionalText(200),
    companyPhone: z
      .string()
      .trim()
      .max(20, vmsg("too_long", { max: 20 }))
      .regex(/^[\d+\-() ]*$/, vmsg("phone_format"))
      .optional()
      .transform((v) => (v ? v : undefined)),
  })
  .superRefine((v, c) => {
    if (v.titleType !== "company") return;
    if (!v.uscc) c.addIssue({ code: "custom", path: ["uscc"], message: vmsg("required") });
    else if (!isUscc(v.uscc)) c.addIssue({ code: "custom", path: ["uscc"], message: vmsg("uscc") });
  });
export type InvoiceTitleRequest = z.infer<typeof InvoiceTitleRequest>;

export const InvoiceTitleStatus = z.enum(["normal", "invalid"]);
export const InvoiceTitle = z.object({
  id: z.string(),
  titleType: TitleType,
  title: z.string(),
  uscc: z.string().nullable(),
  bankName: z.string().nullable(),
  bankAccount: z.string().nullable(),
  companyAddress: z.string().nullable(),
  companyPhone: z.string().nullable(),
  status: InvoiceTitleStatus,
  createdAt: z.string(),
});
export type InvoiceTitle = z.infer<typeof InvoiceTitle>;

export const InvoiceTitleParams = z.object({ orgId: z.string().min(1).max(64), titleId: z.string().min(1).max(64) });
export const InvoiceParams = z.object({ orgId: z.string().min(1).max(64), invoiceId: z.string().min(1).max(64) });

/** An amount typed for one recharge: whole units with at most 2 decimals ("12.50"). */
export const InvoiceAmount = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .regex(/^\d{1,9}(\.\d{1,2})?$/, vmsg("money_format"));

export const ApplyInvoiceRequest = z.object({
  titleId: z
    .string({ error: vmsg("required") })
    .min(1, vmsg("required"))
    .max(64),
  invoiceType: InvoiceType,
  method: InvoiceMethod.default("electronic"),
  email: InvoiceEmail,
  /** The paid recharges and how much of each; each at most its available amount (§5). */
  items: z
    .array(z.object({ paymentId: z.string().min(1).max(64), amount: InvoiceAmount }))
    .min(1, vmsg("invoice_pick_payment"))
    .max(50, vmsg("too_many", { max: 50 })),
});
export type ApplyInvoiceRequest = z.infer<typeof ApplyInvoiceRequest>;

/**
 * global: a tax invoice over paid orders that have none yet (corporate transfers; card orders get theirs when
 * paid). The bill-to block is the organization's invoice information; the GST rate is the configured one.
 */
export const ApplyTaxInvoiceRequest = ApplyInvoiceRequest.pick({ email: true, items: true });
export type ApplyTaxInvoiceRequest = z.infer<typeof ApplyTaxInvoiceRequest>;

/** What a special VAT invoice needs of its title (§5), as field problems on the title's fields. */
export function specialInvoiceProblems(title: {
  titleType: TitleType;
  uscc: string | null;
  bankName: string | null;
  bankAccount: string | null;
  companyAddress: string | null;
  companyPhone: string | null;
}): string[] {
  if (title.titleType !== "company") return ["titleType"];
  const missing: string[] = [];
  for (const k of ["uscc", "bankName", "bankAccount", "companyAddress", "companyPhone"] as const) {
    if (!title[k]) missing.push(k);
  }
  return missing;
}

export const RedLetterRound = z.object({
  id: z.string(),
  initiator: z.enum(["seller", "buyer"]),
  state: RedLetterState,
  reason: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  closedAt: z.string().nullable(),
});
export type RedLetterRound = z.infer<typeof RedLetterRound>;

export const Invoice = z.object({
  id: z.string(),
  createdAt: z.string(),
  title: z.string(),
  titleType: TitleType,
  invoiceType: InvoiceType,
  method: InvoiceMethod,
  uscc: z.string().nullable(),
  email: z.string(),
  currency: Currency,
  /** tax-inclusive */
  amount: Nanos,
  net: Nanos,
  tax: Nanos,
  taxRateBp: z.number().int(),
  status: InvoiceStatus,
  invoiceNo: z.string().nullable(),
  failReason: z.string().nullable(),
  issuedAt: z.string().nullable(),
  /** The red-letter invoice's (cn) or the credit note's (global) number once voided. */
  redInvoiceNo: z.string().nullable(),
  /** global: the bill-to block copied at application (name, email, tax_id, address lines, country_code). */
  billTo: z.record(z.string(), z.string().nullable()).nullable(),
  items: z.array(z.object({ paymentId: z.string(), amount: Nanos })),
  /** Red-letter rounds, newest first; the first is open when the invoice is refunding. */
  redLetters: z.array(RedLetterRound),
  pdfAvailable: z.boolean(),
  /** The red-letter invoice's or credit note's PDF can be downloaded. */
  voidPdfAvailable: z.boolean(),
});
export type Invoice = z.infer<typeof Invoice>;

export const InvoiceablePayment = z.object({
  id: z.string(),
  createdAt: z.string(),
  paymentType: PayType,
  currency: Currency,
  amount: Nanos,
  invoiced: Nanos,
  refunded: Nanos,
  /** amount − invoiced − refunded */
  available: Nanos,
});
export type InvoiceablePayment = z.infer<typeof InvoiceablePayment>;

export const InvoiceOverview = z.object({
  /** Invoicing needs identity verification (§6). */
  verified: z.boolean(),
  taxRateBp: z.number().int(),
  payments: z.array(InvoiceablePayment),
  titles: z.array(InvoiceTitle),
});
export type InvoiceOverview = z.infer<typeof InvoiceOverview>;

export const ReasonRequest = z.object({ reason: text(200) });
export type ReasonRequest = z.infer<typeof ReasonRequest>;

/**
 * The operator issues an invoice (or its red-letter invoice / credit note) with the number the tax system gave
 * it. cn needs that number; a global document left without one is numbered by the platform.
 */
export const IssueInvoiceRequest = z.object({
  invoiceNo: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z-]{8,32}$/, vmsg("invoice_number"))
      .optional(),
  ),
});
export type IssueInvoiceRequest = z.infer<typeof IssueInvoiceRequest>;

/** ISO 3166-1 alpha-2 codes (officially assigned). */
export const COUNTRY_CODES = (
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
  "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO " +
  "FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE " +
  "JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO " +
  "MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW " +
  "PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM " +
  "TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
).split(" ");
const COUNTRY_SET = new Set(COUNTRY_CODES);

/** International invoice information (§3; global edition), complete before a card payment (§6). */
export const InvoiceInfoRequest = z.object({
  name: text(100),
  email: InvoiceEmail,
  tax_id: optionalText(40),
  street: text(200),
  address_line1: optionalText(200),
  address_line2: optionalText(200),
  city: text(100),
  state: optionalText(100),
  postal_code: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(16, vmsg("too_long", { max: 16 }))
    .regex(/^[A-Za-z0-9 -]+$/, vmsg("postal_code")),
  country_code: z
    .string({ error: vmsg("required") })
    .trim()
    .toUpperCase()
    .refine((v) => COUNTRY_SET.has(v), vmsg("country_code")),
});
export type InvoiceInfoRequest = z.infer<typeof InvoiceInfoRequest>;

export const InvoiceInfo = z.object({
  name: z.string(),
  email: z.string(),
  tax_id: z.string().nullable(),
  street: z.string(),
  address_line1: z.string().nullable(),
  address_line2: z.string().nullable(),
  city: z.string(),
  state: z.string().nullable(),
  postal_code: z.string(),
  country_code: z.string(),
  updatedAt: z.string(),
});
export type InvoiceInfo = z.infer<typeof InvoiceInfo>;

export const InvoiceInfoResponse = z.object({ info: InvoiceInfo.nullable(), gstRateBp: z.number().int() });
export type InvoiceInfoResponse = z.infer<typeof InvoiceInfoResponse>;

/** The invoice of a paid global order. */
export const OrderInvoice = z.object({
  paymentId: z.string(),
  invoiceNo: z.string(),
  createdAt: z.string(),
  currency: Currency,
  amount: Nanos,
  net: Nanos,
  tax: Nanos,
  taxRateBp: z.number().int(),
  /** `voided` once a refund returned the whole order (the PDF says so too). */
  status: z.enum(["paid", "voided"]),
  voidedAt: z.string().nullable(),
  /** One per partial refund, oldest first: the refunded amount credited, with its own number and PDF. */
  creditNotes: z.array(
    z.object({ creditNo: z.string(), createdAt: z.string(), amount: Nanos, net: Nanos, tax: Nanos }),
  ),
});
export type OrderInvoice = z.infer<typeof OrderInvoice>;

export const OrderInvoicePathParams = z.object({
  orgId: z.string().min(1).max(64),
  paymentId: z.string().min(1).max(64),
});

export const OrderCreditNotePathParams = OrderInvoicePathParams.extend({ creditNo: z.string().min(1).max(64) });

// ─── back office ───────────────────────────────────────────────────────────────────────────────────────────────

export const AdminInvoice = Invoice.extend({
  orgId: z.string(),
  orgName: z.string(),
  bankName: z.string().nullable(),
  bankAccount: z.string().nullable(),
  companyAddress: z.string().nullable(),
  companyPhone: z.string().nullable(),
});
export type AdminInvoice = z.infer<typeof AdminInvoice>;

/** Queue filter: applications to issue (oldest first), or issued invoices and those being voided (red letters). */
export const AdminInvoiceQuery = z.object({ queue: z.enum(["waiting", "issued"]).default("waiting") });
export const AdminInvoiceList = z.object({ items: z.array(AdminInvoice) });
export const AdminInvoiceParams = z.object({ invoiceId: z.string().min(1).max(64) });
