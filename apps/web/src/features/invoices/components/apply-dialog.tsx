import { Checkbox, Group, Input, SegmentedControl, Select, Table, Text, TextInput } from "@mantine/core";
import {
  ApplyInvoiceRequest,
  ApplyTaxInvoiceRequest,
  formatMoney,
  formatRate,
  type InvoiceablePayment,
  type InvoiceTitle,
  parseMoney,
  splitTax,
  translateValidation,
  vmsg,
} from "@moonport/contracts";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { useApplyInvoice } from "../api/invoices-api.ts";

type Pick = Record<string, { on: boolean; amount: string }>;

/** An amount as the form takes it: whole units with at most 2 decimals (the contracts' `InvoiceAmount`). */
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * The application over paid recharges, each with an amount up to what it has available (§5). cn picks a saved
 * title, the invoice type and delivery; global is made out to the organization's invoice information (`billTo`)
 * with GST and covers wire transfers (card orders have their own invoice).
 */
export function ApplyDialog({
  orgId,
  edition,
  opened,
  onClose,
  titles = [],
  billTo,
  defaultEmail = "",
  payments,
  taxRateBp,
}: {
  orgId: string;
  edition: "cn" | "global";
  opened: boolean;
  onClose: () => void;
  titles?: InvoiceTitle[];
  /** global: whom the invoice is made out to */
  billTo?: string;
  defaultEmail?: string;
  payments: InvoiceablePayment[];
  taxRateBp: number;
}) {
  const { t } = useTranslation("invoices");
  const locale = useLocale();
  const cn = edition === "cn";
  const apply = useApplyInvoice(orgId, edition);
  const open = payments.filter((p) => BigInt(p.available) > 0n);
  const [choice, setChoice] = useState<CnChoice>({ titleId: null, invoiceType: "general", method: "electronic" });
  const [email, setEmail] = useState(defaultEmail);
  const [picked, setPicked] = useState<Pick>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const currency = payments[0]?.currency ?? (cn ? "CNY" : "USD");
  const items = open
    .filter((p) => picked[p.id]?.on)
    .map((p) => ({ paymentId: p.id, amount: picked[p.id]!.amount.trim() }));
  let total = 0n;
  for (const i of items) if (AMOUNT.test(i.amount)) total += parseMoney(i.amount);
  const split = splitTax(total, taxRateBp);
  const close = () => {
    setPicked({});
    setErrors({});
    setFailure(null);
    onClose();
  };
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setFailure(null);
    const parsed = cn
      ? ApplyInvoiceRequest.safeParse({ ...choice, titleId: choice.titleId ?? "", email, items })
      : ApplyTaxInvoiceRequest.safeParse({ email, items });
    const issues = parsed.success
      ? []
      : parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    issues.push(...aboveAvailable(items, open));
    if (!parsed.success || issues.length) {
      setErrors(Object.fromEntries(issues.map((i) => [i.path, translateValidation(i.message, locale)])));
      return;
    }
    setErrors({});
    apply.mutate(parsed.data, {
      onSuccess: close,
      onError: (e) => {
        if (e instanceof ApiError && e.details.length) {
          setErrors(Object.fromEntries(e.details.map((d) => [d.path, translateValidation(d.message, locale)])));
        }
        setFailure(t("failure", { reason: e instanceof ApiError ? e.message : String(e) }));
      },
    });
  };
  // Field errors of the picked rows are reported by index in `items`; map them back to the payment.
  const rowError = (paymentId: string) => {
    const i = items.findIndex((x) => x.paymentId === paymentId);
    return i < 0 ? undefined : (errors[`items.${i}.amount`] ?? errors[`items.${i}.paymentId`]);
  };
  return (
    <FormDialog
      opened={opened}
      onClose={close}
      title={cn ? t("apply.title") : t("global.request")}
      size="xl"
      onSubmit={submit}
      submitting={apply.isPending}
      submitLabel={cn ? t("apply.submit") : t("global.requestSubmit")}
      error={failure ?? undefined}
      submitTestId="apply-submit"
      errorTestId="apply-error"
    >
      {cn ? null : (
        <Text size="sm" data-testid="apply-bill-to">
          {t("apply.billTo", { name: billTo })}
        </Text>
      )}
      {cn ? <CnFields titles={titles} choice={choice} onChange={setChoice} errors={errors} /> : null}
      <TextInput
        label={t("apply.email")}
        description={t("apply.emailHint")}
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
        error={errors.email}
        required
        data-testid="apply-email"
      />
      <Text size="sm" fw={500}>
        {cn ? t("apply.payments") : t("apply.paymentsGlobal")}
      </Text>
      {open.length === 0 ? (
        <Text size="sm" c="dimmed">
          {cn ? t("apply.noPayments") : t("apply.noPaymentsGlobal")}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                <Table.Th>{t("apply.paidAt")}</Table.Th>
                <Table.Th ta="right">{t("apply.paid")}</Table.Th>
                <Table.Th ta="right">{t("apply.available")}</Table.Th>
                <Table.Th>{t("apply.amount")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {open.map((p) => {
                const row = picked[p.id] ?? { on: false, amount: formatAmount(p.available) };
                return (
                  <Table.Tr key={p.id} data-testid="apply-payment">
                    <Table.Td>
                      <Checkbox
                        aria-label={t("apply.pick")}
                        checked={row.on}
                        onChange={(e) => {
                          setErrors({});
                          setPicked({ ...picked, [p.id]: { ...row, on: e.currentTarget.checked } });
                        }}
                        data-testid="apply-payment-pick"
                      />
                    </Table.Td>
                    <Table.Td>
                      <DateTimeCell iso={p.createdAt} />
                    </Table.Td>
                    <Table.Td ta="right">{money(p.amount, p.currency)}</Table.Td>
                    <Table.Td ta="right">{money(p.available, p.currency)}</Table.Td>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        w={130}
                        value={row.amount}
                        disabled={!row.on}
                        onChange={(e) => {
                          // A changed amount is checked again at the next submit.
                          setErrors({});
                          setFailure(null);
                          setPicked({ ...picked, [p.id]: { ...row, amount: e.currentTarget.value } });
                        }}
                        error={rowError(p.id)}
                        aria-label={t("apply.amount")}
                        data-testid="apply-payment-amount"
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {errors.items ? (
        <Text size="xs" c="red">
          {errors.items}
        </Text>
      ) : null}
      <Text size="sm" data-testid="apply-total">
        {t(cn ? "apply.total" : "apply.totalGst", {
          total: money(total, currency),
          net: money(split.net, currency),
          tax: money(split.tax, currency),
          rate: formatRate(taxRateBp),
        })}
      </Text>
    </FormDialog>
  );
}

/**
 * The picked amounts above what their recharge still has available (§5), refused before asking the server, with the
 * server's own message naming the available amount.
 */
function aboveAvailable(items: { paymentId: string; amount: string }[], payments: InvoiceablePayment[]) {
  return items.flatMap((item, i) => {
    const p = payments.find((x) => x.id === item.paymentId);
    if (!p || !AMOUNT.test(item.amount) || parseMoney(item.amount) <= BigInt(p.available)) return [];
    const available = formatMoney(p.available, p.currency);
    return [{ path: `items.${i}.amount`, message: vmsg("invoice_amount_exceeds", { available }) }];
  });
}

/** A nano-unit amount as the form's "12.50" (available amounts of recharges are whole cents). */
function formatAmount(nanos: string): string {
  const n = BigInt(nanos);
  const cents = n / 10_000_000n;
  return `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
}

/** cn's choices: the saved title, general or special VAT, electronic or paper. */
interface CnChoice {
  titleId: string | null;
  invoiceType: "general" | "special";
  method: "electronic" | "paper";
}

const CN_CHOICES = [
  { name: "invoiceType", options: ["general", "special"], testId: "apply-type" },
  { name: "method", options: ["electronic", "paper"], testId: "apply-method" },
] as const;

function CnFields({
  titles,
  choice,
  onChange,
  errors,
}: {
  titles: InvoiceTitle[];
  choice: CnChoice;
  onChange: (v: CnChoice) => void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation("invoices");
  return (
    <>
      <Select
        label={t("apply.invoiceTitle")}
        data={titles.map((x) => ({ value: x.id, label: `${x.title} (${t(`titleType.${x.titleType}`)})` }))}
        value={choice.titleId}
        onChange={(titleId) => onChange({ ...choice, titleId })}
        error={errors.titleId}
        required
        data-testid="apply-title"
        comboboxProps={{ withinPortal: true }}
      />
      <Group grow align="flex-start">
        {CN_CHOICES.map(({ name, options, testId }) => (
          <Input.Wrapper key={name} label={t(`apply.${name}`)} error={errors[name]}>
            <SegmentedControl
              display="flex"
              value={choice[name]}
              onChange={(v) => onChange({ ...choice, [name]: v })}
              data={options.map((o) => ({ value: o, label: t(`${name}.${o}`) }))}
              data-testid={testId}
            />
          </Input.Wrapper>
        ))}
      </Group>
    </>
  );
}
