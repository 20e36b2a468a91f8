import {
  BillingOverview,
  type CreatePaymentRequest,
  type Customer,
  InvoiceInfoResponse,
  Payment,
  PaymentCard,
  PaymentCardList,
  PaymentPage,
  RechargeOptions,
  RedeemVoucherResponse,
  VoucherPage,
} from "@moonport/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { orgApi, orgKey, queryString, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api, externalFetch } from "../../../lib/api.ts";

/** Cache keys of the billing reads, under the organization's root key. */
const billingKeys = {
  all: (orgId: string) => [...orgKey(orgId), "billing"] as const,
  overview: (orgId: string) => [...orgKey(orgId), "billing", "overview"] as const,
  options: (orgId: string) => [...orgKey(orgId), "billing", "options"] as const,
  payments: (orgId: string, q: object) => [...orgKey(orgId), "billing", "payments", q] as const,
  payment: (orgId: string, id: string) => [...orgKey(orgId), "billing", "payment", id] as const,
  cards: (orgId: string) => [...orgKey(orgId), "billing", "cards"] as const,
  vouchers: (orgId: string, q: object) => [...orgKey(orgId), "billing", "vouchers", q] as const,
};

export const overviewQuery = (orgId: string) =>
  queryOptions({
    queryKey: billingKeys.overview(orgId),
    queryFn: () => api(`${orgApi(orgId)}/billing/overview`, { schema: BillingOverview }),
  });

export const rechargeOptionsQuery = (orgId: string) =>
  queryOptions({
    queryKey: billingKeys.options(orgId),
    queryFn: () => api(`${orgApi(orgId)}/recharge/options`, { schema: RechargeOptions }),
  });

export interface PaymentFilter {
  page: number;
  pageSize: number;
  status?: string;
  paymentType?: string;
}
export const paymentsQuery = (orgId: string, q: PaymentFilter) =>
  queryOptions({
    queryKey: billingKeys.payments(orgId, q),
    queryFn: () => api(`${orgApi(orgId)}/payments${queryString({ ...q })}`, { schema: PaymentPage }),
  });

/** The organization's waiting orders, listed at the top of the recharge screen (each blocks a new order, §4). */
export const waitingPaymentsQuery = (orgId: string) =>
  paymentsQuery(orgId, { page: 1, pageSize: 5, status: "waiting" });

/**
 * Refreshes every billing read (payment lists, the waiting orders, recharge options, the overview's balance). The
 * order panel calls it when its order changes state, so the lists below it show what it shows.
 */
export function useRefreshBilling(orgId: string) {
  const qc = useQueryClient();
  return useCallback(() => qc.invalidateQueries({ queryKey: billingKeys.all(orgId) }), [qc, orgId]);
}

/** One order, polled while it waits (the page updates by itself when the provider's notification lands). */
export const paymentQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: billingKeys.payment(orgId, id),
    queryFn: () => api(`${orgApi(orgId)}/payments/${encodeURIComponent(id)}`, { schema: Payment }),
    refetchInterval: (q) => (q.state.data?.status === "waiting" ? 2000 : false),
  });

export const cardsQuery = (orgId: string) =>
  queryOptions({
    queryKey: billingKeys.cards(orgId),
    queryFn: () => api(`${orgApi(orgId)}/cards`, { schema: PaymentCardList }),
  });

export const vouchersQuery = (orgId: string, q: { page: number; pageSize: number; status?: string }) =>
  queryOptions({
    queryKey: billingKeys.vouchers(orgId, q),
    queryFn: () => api(`${orgApi(orgId)}/vouchers${queryString({ ...q })}`, { schema: VoucherPage }),
  });

/**
 * A write to an order. A refusal can still change orders (a declined card leaves a failed order, a card the issuer
 * could not process yet a waiting one), so the organization's reads are refreshed whatever the answer.
 */
function useOrderMutation<TVars>(orgId: string, fn: (vars: TVars) => Promise<Payment>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: orgKey(orgId) }) });
}

export function useCreatePayment(orgId: string) {
  return useOrderMutation(orgId, (body: CreatePaymentRequest) =>
    api(`${orgApi(orgId)}/payments`, { body, schema: Payment }),
  );
}

export function usePaymentAction(orgId: string) {
  return useOrderMutation(orgId, (v: { id: string; action: "cancel" | "continue" }) =>
    api(`${orgApi(orgId)}/payments/${encodeURIComponent(v.id)}/${v.action}`, {
      method: "POST",
      body: {},
      schema: Payment,
    }),
  );
}

/**
 * Binding a card: the number and CVC go to the provider's tokenization endpoint (never to /api); only the token
 * and the customer information reach our server.
 */
export function useBindCard(orgId: string) {
  return useOrgMutation(
    orgId,
    async (v: {
      provider: CardProvider;
      card: { number: string; cvc: string; expMonth: number; expYear: number };
      customer: Customer;
    }) => {
      const token = await tokenizeCard(v.provider, v.card);
      return api(`${orgApi(orgId)}/cards`, { body: { token, customer: v.customer }, schema: PaymentCard });
    },
  );
}

/** Where and how the browser tokenizes a card (recharge options' `cardProvider`). */
export interface CardProvider {
  name: string;
  tokenizeUrl: string;
  publishableKey: string | null;
}

/**
 * Card data → the provider's token. Sandbox: its JSON endpoint. Stripe: `POST /v1/payment_methods` with the
 * publishable key, the call Stripe.js makes (a live Stripe account must allow raw card data for this, or the
 * dialog should mount Stripe Elements instead; see apps/server/src/modules/payments/README.md).
 */
async function tokenizeCard(
  provider: CardProvider,
  card: { number: string; cvc: string; expMonth: number; expYear: number },
): Promise<string> {
  const stripe = provider.name === "stripe";
  const res = await externalFetch(provider.tokenizeUrl, {
    method: "POST",
    headers: stripe
      ? { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${provider.publishableKey}` }
      : { "content-type": "application/json" },
    body: stripe
      ? new URLSearchParams({
          type: "card",
          "card[number]": card.number.replace(/\s/g, ""),
          "card[cvc]": card.cvc,
          "card[exp_month]": String(card.expMonth),
          "card[exp_year]": String(card.expYear),
        }).toString()
      : JSON.stringify(card),
  });
  if (!res.ok) throw new CardRejected();
  const body = (await res.json()) as { token?: string; id?: string };
  const token = stripe ? body.id : body.token;
  if (!token) throw new CardRejected();
  return token;
}

/** The provider refused the card's data at tokenization ("card information is wrong"). */
export class CardRejected extends Error {}

export function useDeleteCard(orgId: string) {
  return useOrgMutation(orgId, (id: string) =>
    api(`${orgApi(orgId)}/cards/${encodeURIComponent(id)}`, { method: "DELETE" }),
  );
}

export function useRedeemVoucher(orgId: string) {
  return useOrgMutation(orgId, (code: string) =>
    api(`${orgApi(orgId)}/vouchers/redeem`, { body: { code }, schema: RedeemVoucherResponse }),
  );
}

/** Whether the global organization's invoice information is complete (card payments need it, §6). */
export const invoiceInfoQuery = (orgId: string, enabled: boolean) =>
  queryOptions({
    queryKey: [...orgKey(orgId), "invoices", "info"],
    queryFn: () => api(`${orgApi(orgId)}/invoice-info`, { schema: InvoiceInfoResponse }),
    enabled,
  });
