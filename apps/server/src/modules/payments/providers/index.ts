/**
 * Which provider serves which pay type (configuration: PAYMENT_CARD_PROVIDER, PAYMENT_ALIPAY_PROVIDER,
 * PAYMENT_WXPAY_PROVIDER; the sandbox is the default for each, and exists only where PAYMENT_SANDBOX allows it,
 * payment-methods.ts). Providers are built once per context and looked up by pay type (new orders) or by name
 * (notifications, continuing an order: the order keeps the provider it was opened with, even after the
 * configuration changes).
 */
import type { PayType } from "@moonport/contracts";
import type { AppContext } from "../../../context.ts";
import { AppError } from "../../../lib/app-error.ts";
import { paymentMethod } from "../payment-methods.ts";
import { SANDBOX } from "../sandbox-psp.ts";
import { ALIPAY, alipayProvider } from "./alipay.ts";
import type { PaymentProvider } from "./provider.ts";
import { sandboxProvider } from "./sandbox.ts";
import { STRIPE, stripeProvider } from "./stripe.ts";
import { WECHATPAY, wechatpayProvider } from "./wechatpay.ts";

type Ctx = Pick<AppContext, "config" | "jobs" | "clock" | "log">;
const registries = new WeakMap<object, Map<string, PaymentProvider>>();

function registry(ctx: Ctx): Map<string, PaymentProvider> {
  let r = registries.get(ctx.config);
  if (!r) {
    const p = ctx.config.payments;
    r = new Map<string, PaymentProvider>();
    if (p.sandboxAllowed) r.set(SANDBOX, sandboxProvider(ctx));
    if (p.stripe) r.set(STRIPE, stripeProvider(ctx));
    if (p.alipay) r.set(ALIPAY, alipayProvider(ctx));
    if (p.wechatpay) r.set(WECHATPAY, wechatpayProvider(ctx));
    registries.set(ctx.config, r);
  }
  return r;
}

/** The provider that opens new orders of this pay type; null when none is offered here (transfer, or not set up). */
export function providerForPayType(ctx: Ctx, payType: PayType): PaymentProvider | null {
  const method = paymentMethod(ctx.config, payType);
  return method.offered ? providerNamed(ctx, method.provider) : null;
}

/** null when no such provider is configured (a webhook for a provider that is off answers 404). */
export function providerNamed(ctx: Ctx, name: string): PaymentProvider | null {
  return registry(ctx).get(name) ?? null;
}

export function requireProvider(ctx: Ctx, name: string): PaymentProvider {
  const p = providerNamed(ctx, name);
  if (!p) throw new AppError("pay_type_not_configured");
  return p;
}
