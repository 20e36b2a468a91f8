import { Alert, Button, Card, Checkbox, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import {
  CreateRefundRequest,
  type Currency,
  parseMoney,
  type RefundablePayment,
  type RefundOptions,
  translateValidation,
} from "@moonport/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { money } from "../../../components/console-kit/money.ts";
import { FormError } from "../../../components/form-error.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useRequestRefund } from "../api/refunds-api.ts";

/** Nanos of a typed amount, or null while it is not a valid amount (the schema's message says why). */
function nanos(v: string): bigint | null {
  try {
    return /^\d{1,7}(\.\d{1,2})?$/.test(v.trim()) ? parseMoney(v.trim()) : null;
  } catch {
    return null;
  }
}
const units = (n: string) => (Number(BigInt(n) / 10_000_000n) / 100).toFixed(2);

/**
 * Picking paid recharges and how much of each to refund. The form checks what the server checks (the contracts'
 * schema, each amount within what is left of its recharge, the total within the refundable cash) and says why a
 * recharge cannot be picked: fully refunded, or held by an issued invoice that must be voided first.
 */
export function RefundRequest({ orgId, options }: { orgId: string; options: RefundOptions }) {
  const { t } = useTranslation("refunds");
  const locale = useLocale();
  const request = useRequestRefund(orgId);
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [email, setEmail] = useState("");
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [sent, setSent] = useState(false);
  const cur = options.currency;
  const toggle = (p: RefundablePayment, on: boolean) =>
    setPicked((x) => {
      const next = { ...x };
      if (on) next[p.id] = units(p.refundable);
      else delete next[p.id];
      return next;
    });
  const total = Object.values(picked).reduce((s, v) => s + (nanos(v) ?? 0n), 0n);

  const submit = async () => {
    setFormError(undefined);
    setSent(false);
    const items = Object.entries(picked).map(([paymentId, amount]) => ({ paymentId, amount }));
    const parsed = CreateRefundRequest.safeParse({ items, email, reason: reason || undefined });
    const next: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const [head, index] = issue.path;
        const key = head === "items" && typeof index === "number" ? items[index]!.paymentId : String(head);
        next[key] ??= translateValidation(issue.message, locale);
      }
    }
    for (const p of options.payments) {
      const amount = picked[p.id] === undefined ? null : nanos(picked[p.id]!);
      if (amount !== null && amount > BigInt(p.refundable) && !next[p.id]) {
        next[p.id] = t("form.overPayment", { available: money(p.refundable, cur) });
      }
    }
    if (!next.items && total > BigInt(options.available)) {
      next.items = t("form.overCash", { available: money(options.available, cur) });
    }
    setErrors(next);
    if (Object.keys(next).length > 0 || !parsed.success) return;
    try {
      await request.mutateAsync(parsed.data);
      setPicked({});
      setReason("");
      setSent(true);
    } catch (err) {
      // The server's refusals already read "Refund failed: …" (§8); anything else gets the default reason.
      setFormError(
        err instanceof ApiError && err.code.startsWith("refund_")
          ? err.message
          : t("failed", { reason: err instanceof ApiError ? err.message : t("tryLater") }),
      );
    }
  };

  return (
    <Card withBorder padding="lg" data-testid="refund-request">
      <Stack>
        <div>
          <Title order={4}>{t("form.title")}</Title>
          <Text size="sm" c="dimmed">
            {t("form.intro")}
          </Text>
        </div>
        {options.payments.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("form.noPayments")}
          </Text>
        ) : (
          <Stack gap="xs">
            {options.payments.map((p) => (
              <PaymentChoice
                key={p.id}
                p={p}
                currency={cur}
                locale={locale}
                amount={picked[p.id]}
                error={errors[p.id]}
                onToggle={(on) => toggle(p, on)}
                onAmount={(v) => setPicked((x) => ({ ...x, [p.id]: v }))}
              />
            ))}
          </Stack>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t("form.email")}
            description={t("form.emailHint")}
            withAsterisk
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            data-testid="refund-email"
          />
          <TextInput
            label={t("form.reason")}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={errors.reason}
            maxLength={200}
          />
        </SimpleGrid>
        {errors.items ? (
          <Alert color="red" variant="light" data-testid="refund-items-error">
            {errors.items}
          </Alert>
        ) : null}
        <FormError message={formError} />
        {sent ? (
          <Alert color="teal" variant="light" data-testid="refund-sent">
            {t("form.sent")}
          </Alert>
        ) : null}
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">{t("form.total", { total: money(total.toString(), cur) })}</Text>
          <Button onClick={submit} loading={request.isPending} data-testid="refund-submit">
            {t("form.submit")}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function PaymentChoice({
  p,
  currency,
  locale,
  amount,
  error,
  onToggle,
  onAmount,
}: {
  p: RefundablePayment;
  currency: Currency;
  locale: "en-US" | "zh-CN";
  amount: string | undefined;
  error?: string;
  onToggle: (on: boolean) => void;
  onAmount: (v: string) => void;
}) {
  const { t } = useTranslation("refunds");
  const none = BigInt(p.refundable) === 0n;
  const held = BigInt(p.invoicedAmount) > 0n;
  return (
    <Card withBorder padding="sm" radius="sm" data-testid="refund-payment" data-payment-id={p.id}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Checkbox
          checked={amount !== undefined}
          disabled={none}
          onChange={(e) => onToggle(e.currentTarget.checked)}
          label={
            <Stack gap={2}>
              <Text size="sm" fw={500}>
                {t("form.payment", {
                  date: formatDateTime(p.createdAt, locale),
                  type: t(`payType.${p.paymentType}`),
                  amount: money(p.amount, currency),
                })}
              </Text>
              <Text size="xs" c="dimmed">
                {t("form.refundable", { amount: money(p.refundable, currency) })}
                {BigInt(p.refundedAmount) > 0n
                  ? ` · ${t("form.refunded", { amount: money(p.refundedAmount, currency) })}`
                  : ""}
              </Text>
              {held ? (
                <Text size="xs" c="orange" data-testid="refund-invoice-held">
                  {t("form.invoiceHeld", { amount: money(p.invoicedAmount, currency) })}
                </Text>
              ) : null}
            </Stack>
          }
        />
        {amount !== undefined ? (
          <TextInput
            w={160}
            aria-label={t("form.amount")}
            leftSection={<Text size="sm">{currency === "CNY" ? "¥" : "$"}</Text>}
            value={amount}
            onChange={(e) => onAmount(e.currentTarget.value)}
            error={error}
            inputMode="decimal"
            data-testid="refund-amount"
          />
        ) : error ? (
          <Text size="xs" c="red">
            {error}
          </Text>
        ) : null}
      </Group>
    </Card>
  );
}
