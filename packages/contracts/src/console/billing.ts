/**
 * Recharge, bound cards, vouchers and the account overview (docs/product-spec.md §2 Billing, §3, §4, §5, §9).
 */
import { z } from "zod";
import { Currency, EDITION_CURRENCY, type Edition, Edition as EditionSchema } from "../edition.ts";
import type { Localized } from "../locale.ts";
import { formatMoney, parseMoney } from "../money.ts";
import { vmsg } from "../validation.ts";
import { Nanos, PageQuery, paged } from "./common.ts";
import { TierRow, TierSource } from "./usage.ts";

export const PAY_TYPES = ["wxpay", "alipay", "unionpay", "publicpay", "b2bbank", "b2btransfer", "credit_card"] as const;
export const PayType = z.enum(PAY_TYPES);
export type PayType = z.infer<typeof PayType>;

/** Pay types as the server names them in its messages (the web app's own labels are in its billing namespace). */
export const PAY_TYPE_NAMES: Record<PayType, Localized> = {
  wxpay: { "en-US": "WeChat Pay", "zh-CN": "微信支付" },
  alipay: { "en-US": "Alipay", "zh-CN": "支付宝" },
  unionpay: { "en-US": "UnionPay", "zh-CN": "银联" },
  publicpay: { "en-US": "corporate payment", "zh-CN": "对公支付" },
  b2bbank: { "en-US": "corporate online banking", "zh-CN": "企业网银" },
  b2btransfer: { "en-US": "corporate transfer", "zh-CN": "对公转账" },
  credit_card: { "en-US": "credit card", "zh-CN": "信用卡" },
};

/**
 * What each edition offers at the recharge screen (docs/product-spec.md §9 pay types; corporate transfer is
 * `b2btransfer`).
 */
export const PAY_TYPES_BY_EDITION: Record<Edition, PayType[]> = {
  cn: ["wxpay", "alipay", "unionpay", "b2btransfer"],
  global: ["credit_card", "b2btransfer"],
};

/**
 * Recharge bounds per edition, whole currency units. Like OpenAI ($5 … $10,000 per purchase) and Kimi (¥5 minimum
 * so the first-recharge reward of ¥5 is reachable in one order); corporate transfers are capped by the same maximum.
 */
export const RECHARGE_BOUNDS: Record<Edition, { min: number; max: number }> = {
  cn: { min: 5, max: 50_000 },
  global: { min: 5, max: 10_000 },
};
export const MONTHLY_RECHARGE_ORDERS = 30;
/** Unpaid orders close after a day (docs/product-spec.md §9). */
export const PAYMENT_CLOSE_AFTER_MS = 24 * 60 * 60 * 1000;
/**
 * First cumulative cash recharge of 5 units grants a 5-unit voucher, once per organization (docs/product-spec.md §9).
 */
export const FIRST_RECHARGE_REWARD = { threshold: "5", amount: "5", days: 30 } as const;

export const PaymentStatus = z.enum(["waiting", "success", "failed", "closed"]);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** An amount of whole units with at most 2 decimals, as typed ("12.50"). Bounds are checked per edition. */
export const RechargeAmount = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .regex(/^\d{1,7}(\.\d{1,2})?$/, vmsg("money_format"));

export function rechargeAmountProblem(edition: Edition, amount: string): string | null {
  const b = RECHARGE_BOUNDS[edition];
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(amount.trim())) return vmsg("money_format");
  const n = parseMoney(amount.trim());
  const min = parseMoney(String(b.min));
  const max = parseMoney(String(b.max));
  if (n < min || n > max) {
    // The bounds carry the edition's currency sign: "5 to 50,000" alone does not say ¥ or $.
    const currency = EDITION_CURRENCY[edition];
    return vmsg("recharge_range", { min: formatMoney(min, currency, 0), max: formatMoney(max, currency, 0) });
  }
  return null;
}

export const CreatePaymentRequest = z.object({
  amount: RechargeAmount,
  payType: PayType,
  /** Bound card to charge (credit_card only). */
  cardId: z.string().max(64).optional(),
  agreement: z.literal(true, { error: vmsg("agreement_required") }),
});
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequest>;

export const Payment = z.object({
  id: z.string(),
  amount: Nanos,
  currency: Currency,
  paymentType: PayType,
  status: PaymentStatus,
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  failureReason: z.string().nullable(),
  /** Where to pay: the provider's hosted checkout (unionpay) or QR content (wxpay/alipay); null when done. */
  checkoutUrl: z.string().nullable(),
  qrContent: z.string().nullable(),
  /** Corporate transfer: our bank details and the reference to write on the transfer. */
  transfer: z
    .object({ accountName: z.string(), bank: z.string(), accountNumber: z.string(), reference: z.string() })
    .nullable(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  /** Refunded, or held by a refund in progress (refunds module). */
  refundedAmount: Nanos,
  /** Paid through the sandbox provider: a test payment, no real money (its balance is test balance too). */
  test: z.boolean(),
});
export type Payment = z.infer<typeof Payment>;

export const PaymentParams = z.object({ orgId: z.string().min(1).max(64), paymentId: z.string().min(1).max(64) });
export const PaymentListQuery = PageQuery.extend({
  status: PaymentStatus.optional(),
  paymentType: PayType.optional(),
});
export const PaymentPage = paged(Payment);
export type PaymentPage = z.infer<typeof PaymentPage>;

/** What the recharge screen needs before paying. */
export const RechargeOptions = z.object({
  edition: EditionSchema,
  currency: Currency,
  min: z.number(),
  max: z.number(),
  /** The edition's pay types this server offers. */
  payTypes: z.array(PayType),
  /** Of those, the ones served by the sandbox provider: test payments only, no real money. */
  testPayTypes: z.array(PayType),
  /** The edition's pay types this server does not offer (no provider set up for them). */
  unavailablePayTypes: z.array(PayType),
  /** Public settings of the card provider (sandbox: its tokenization URL; Stripe: the publishable key). */
  cardProvider: z.object({
    name: z.string(),
    tokenizeUrl: z.string().nullable(),
    publishableKey: z.string().nullable(),
  }),
  /**
   * Offered pay types this organization may use only once it is a verified company (corporate transfer,
   * docs/product-spec.md §6): the screen disables them with the reason instead of failing after Pay.
   */
  companyVerificationNeeded: z.array(PayType),
  /** The waiting order that blocks a new one until it is paid, cancelled or closed (docs/product-spec.md §4). */
  blockingPaymentId: z.string().nullable(),
  ordersThisMonth: z.number().int(),
  monthlyLimit: z.number().int(),
});
export type RechargeOptions = z.infer<typeof RechargeOptions>;

export const Customer = z.object({
  email: z.string().trim().min(1, vmsg("required")).email(vmsg("email")).max(254),
  firstName: z
    .string()
    .trim()
    .min(1, vmsg("required"))
    .max(64, vmsg("too_long", { max: 64 })),
  lastName: z
    .string()
    .trim()
    .min(1, vmsg("required"))
    .max(64, vmsg("too_long", { max: 64 })),
  phone: z
    .string()
    .trim()
    .min(1, vmsg("required"))
    .regex(/^\+?[0-9 ()-]{5,20}$/, vmsg("phone_format")),
  street: z
    .string()
    .trim()
    .min(1, vmsg("required"))
    .max(200, vmsg("too_long", { max: 200 })),
  city: z
    .string()
    .trim()
    .min(1, vmsg("required"))
    .max(100, vmsg("too_long", { max: 100 })),
  state: z
    .string()
    .trim()
    .min(1, vmsg("required"))
    .max(100, vmsg("too_long", { max: 100 })),
  postcode: z
    .string()
    .trim()
    .min(1, vmsg("required"))
    .max(20, vmsg("too_long", { max: 20 })),
  countryCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, vmsg("country_code"))
    .transform((v) => v.toUpperCase()),
});
export type Customer = z.infer<typeof Customer>;

/** Binding a card: the provider's token (the browser tokenized the number and CVC) and the customer info. */
// A PSP's opaque payment-method token: Stripe's are ~30 characters, the sandbox's sealed ones ~200.
export const BindCardRequest = z.object({ token: z.string().min(1).max(512), customer: Customer });
export const PaymentCard = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  holder: z.string(),
  createdAt: z.string(),
});
export type PaymentCard = z.infer<typeof PaymentCard>;
export const PaymentCardList = z.object({ items: z.array(PaymentCard) });
export const CardParams = z.object({ orgId: z.string().min(1).max(64), cardId: z.string().min(1).max(64) });

export const VoucherType = z.enum(["activity", "recharge", "register", "kimiVIP", "other"]);
export const Voucher = z.object({
  id: z.string(),
  type: VoucherType,
  amount: Nanos,
  used: Nanos,
  status: z.enum(["effective", "expired"]),
  createdAt: z.string(),
  expiredAt: z.string(),
});
export type Voucher = z.infer<typeof Voucher>;
export const VoucherListQuery = PageQuery.extend({ status: z.enum(["effective", "expired"]).optional() });
export const VoucherPage = paged(Voucher);
export type VoucherPage = z.infer<typeof VoucherPage>;
export const RedeemVoucherRequest = z.object({
  code: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(64, vmsg("too_long", { max: 64 })),
});
export const RedeemVoucherResponse = z.object({ voucher: Voucher, tier: z.number().int() });

export const BillingOverview = z.object({
  currency: Currency,
  available: Nanos,
  cash: Nanos,
  voucher: Nanos,
  cumulativeRecharge: Nanos,
  tier: TierRow,
  /** What decided the tier: cumulative recharge, a redeemed voucher's floor, or the operator's override. */
  tierSource: TierSource,
  /** The tier a further recharge reaches (null at the top, and under an operator override). */
  nextTier: TierRow.nullable(),
  /** Cash recharge still needed to reach the next tier (null when there is no next tier). */
  toNextTier: Nanos.nullable(),
  monthSpend: Nanos,
  /** How much of the recharges came from test payments (sandbox provider, net of refunds): not real money. */
  testRecharge: Nanos,
  recentPayments: z.array(Payment),
});
export type BillingOverview = z.infer<typeof BillingOverview>;

/** Operator: mark a corporate transfer as received. */
export const ConfirmTransferParams = z.object({ paymentId: z.string().min(1).max(64) });
