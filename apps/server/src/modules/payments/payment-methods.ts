/**
 * Which pay types this server offers, and by which provider. A pay type is offered when a real provider serves it,
 * or when the sandbox does and the sandbox is allowed (PAYMENT_SANDBOX; by default only outside production, where
 * its fake payments would become spendable balance). Corporate transfer is always offered: an operator confirms
 * the money. What is not offered is named with the variables that would offer it, for the start-up log.
 */
import { PAY_TYPES_BY_EDITION, type PayType } from "@moonport/contracts";
import { type Config, PAYMENT_PROVIDER_VARIABLES } from "../../env.ts";
import { SANDBOX } from "./sandbox-psp.ts";

type PaymentMethod =
  | { payType: PayType; offered: true; provider: string; test: boolean }
  | { payType: PayType; offered: false; enableWith: string };

const SANDBOX_OPT_IN = "PAYMENT_SANDBOX=allow (test payments only, never real money)";

function configuredProvider(config: Config, payType: PayType): string | null {
  const p = config.payments.providers;
  if (payType === "credit_card") return p.card;
  if (payType === "alipay") return p.alipay;
  if (payType === "wxpay") return p.wxpay;
  if (payType === "b2btransfer") return null;
  return SANDBOX;
}

const REAL: Partial<Record<PayType, string>> = {
  credit_card: `PAYMENT_CARD_PROVIDER=stripe with ${PAYMENT_PROVIDER_VARIABLES.stripe.join(", ")}`,
  alipay: `PAYMENT_ALIPAY_PROVIDER=alipay with ${PAYMENT_PROVIDER_VARIABLES.alipay.join(", ")}`,
  wxpay: `PAYMENT_WXPAY_PROVIDER=wechatpay with ${PAYMENT_PROVIDER_VARIABLES.wechatpay.join(", ")}`,
};

export function paymentMethod(config: Config, payType: PayType): PaymentMethod {
  const provider = configuredProvider(config, payType);
  if (provider === null) return { payType, offered: true, provider: "transfer", test: false };
  if (provider !== SANDBOX) return { payType, offered: true, provider, test: false };
  if (config.payments.sandboxAllowed) return { payType, offered: true, provider, test: true };
  const real = REAL[payType];
  return { payType, offered: false, enableWith: real ? `${real}, or ${SANDBOX_OPT_IN}` : SANDBOX_OPT_IN };
}

const EDITION_PAY_TYPES = [...new Set(Object.values(PAY_TYPES_BY_EDITION).flat())];

function paymentMethods(config: Config): PaymentMethod[] {
  return EDITION_PAY_TYPES.map((t) => paymentMethod(config, t));
}

/** The start-up log line: what is offered, what is not and how to offer it. */
export function describePaymentMethods(config: Config): {
  offered: string[];
  notOffered: Record<string, string>;
  sandbox: "allowed" | "off";
} {
  const all = paymentMethods(config);
  return {
    offered: all.flatMap((m) =>
      m.offered ? [`${m.payType} (${m.test ? "sandbox: test payments" : m.provider})`] : [],
    ),
    notOffered: Object.fromEntries(all.flatMap((m) => (m.offered ? [] : [[m.payType, m.enableWith]]))),
    sandbox: config.payments.sandboxAllowed ? "allowed" : "off",
  };
}
