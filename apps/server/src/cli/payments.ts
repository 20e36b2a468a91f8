import { EDITIONS, type Edition, formatMoney, parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq, or } from "drizzle-orm";
import { confirmPayment, generateRedemptionCodes } from "../modules/billing/index.ts";
import type { CliCommand } from "./command.ts";

const VOUCHER_TYPES = ["activity", "recharge", "register", "kimiVIP", "other"] as const;

export const confirmPaymentCommand: CliCommand = {
  name: "confirm-payment",
  summary: "Credit a corporate transfer (by its reference or payment id) or a flagged payment once money arrived",
  async run({ db, services, args, print }) {
    const ref = args[0];
    if (!ref) {
      print("Usage: npm run moonport -- confirm-payment <transfer-reference|payment-id>");
      return 2;
    }
    const [payment] = await db
      .select()
      .from(schema.payments)
      .where(or(eq(schema.payments.id, ref), eq(schema.payments.transferReference, ref.toUpperCase())));
    if (!payment) {
      print(`No payment with id or transfer reference ${JSON.stringify(ref)}.`);
      return 1;
    }
    const outcome = await confirmPayment({ ctx: services, paymentId: payment.id, operator: "cli", now: new Date() });
    print(
      outcome === "credited"
        ? `Credited ${formatMoney(payment.amount, payment.currency)} to ${payment.orgId} (payment ${payment.id}).`
        : `Payment ${payment.id} was already credited; nothing changed.`,
    );
    return 0;
  },
};

const USAGE =
  "Usage: npm run moonport -- voucher-codes --count N --amount A --edition cn|global [--type activity|recharge|register|kimiVIP|other] [--voucher-days 30] [--valid-days 90] [--tier 0-5]";

export const voucherCodesCommand: CliCommand = {
  name: "voucher-codes",
  summary: "Generate a batch of single-use voucher redemption codes (printed once; only hashes are stored)",
  async run({ services, args, print }) {
    const o: Record<string, string> = {};
    for (let i = 0; i < args.length; i++) {
      const [flag, inline] = args[i]!.split("=", 2) as [string, string | undefined];
      if (!flag.startsWith("--")) {
        print(`unexpected ${flag}\n${USAGE}`);
        return 2;
      }
      o[flag.slice(2)] = inline ?? args[++i] ?? "";
    }
    const known = ["count", "amount", "edition", "type", "voucher-days", "valid-days", "tier"];
    const unknown = Object.keys(o).find((k) => !known.includes(k));
    if (unknown) {
      print(`unknown option --${unknown}\n${USAGE}`);
      return 2;
    }
    const count = Number(o.count);
    if (!Number.isInteger(count) || count < 1 || count > 10_000) return fail(print, "--count must be 1 to 10000");
    let amount: bigint;
    try {
      amount = parseMoney(o.amount ?? "");
    } catch {
      return fail(print, "--amount needs a decimal amount");
    }
    if (amount <= 0n) return fail(print, "--amount must be positive");
    if (!EDITIONS.includes(o.edition as Edition)) return fail(print, "--edition must be cn or global");
    const type = (o.type ?? "activity") as (typeof VOUCHER_TYPES)[number];
    if (!VOUCHER_TYPES.includes(type)) return fail(print, `--type must be one of ${VOUCHER_TYPES.join(", ")}`);
    const voucherDays = Number(o["voucher-days"] ?? 30);
    const validDays = Number(o["valid-days"] ?? 90);
    if (!Number.isInteger(voucherDays) || voucherDays < 1 || !Number.isInteger(validDays) || validDays < 1) {
      return fail(print, "--voucher-days and --valid-days must be whole days ≥ 1");
    }
    const tier = o.tier === undefined ? null : Number(o.tier);
    if (tier !== null && !/^[0-5]$/.test(o.tier ?? "")) return fail(print, "--tier must be 0 to 5");
    const { batchId, codes } = await generateRedemptionCodes(
      { ctx: services },
      {
        count,
        edition: o.edition as Edition,
        amount,
        voucherType: type,
        voucherDays,
        expiresAt: new Date(Date.now() + validDays * 86_400_000),
        minTier: tier,
        operator: "cli",
      },
    );
    print(`Batch ${batchId}: ${count} code(s), shown once:`);
    for (const code of codes) print(code);
    return 0;
  },
};

function fail(print: (l: string) => void, msg: string): number {
  print(`${msg}\n${USAGE}`);
  return 2;
}
