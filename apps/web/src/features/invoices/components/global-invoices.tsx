import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { formatRate, type InvoiceInfo, InvoiceInfoRequest, type OrderInvoice } from "@moonport/contracts";
import { IconFileInvoice } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { columns } from "../../../components/console-kit/columns.tsx";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState, LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { useZodForm } from "../../../components/console-kit/use-zod-form.ts";
import { FormError } from "../../../components/form-error.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import {
  invoiceInfoQuery,
  invoiceOverviewQuery,
  orderCreditNotePdfUrl,
  orderInvoicePdfUrl,
  orderInvoicesQuery,
  useSaveInvoiceInfo,
} from "../api/invoices-api.ts";
import { ApplyDialog } from "./apply-dialog.tsx";
import { RecordsSection } from "./invoice-records.tsx";
import { VerificationGate } from "./verification-gate.tsx";

/**
 * global: the international invoice information (every invoice's bill-to; needed before a card payment), tax
 * invoices requested over wire transfers with their records and credit notes, and each paid card order's invoice.
 */
export function GlobalInvoices({ orgId }: { orgId: string }) {
  const { t } = useTranslation("invoices");
  const info = useQuery(invoiceInfoQuery(orgId));
  const overview = useQuery(invoiceOverviewQuery(orgId));
  const [requesting, setRequesting] = useState(false);
  const o = overview.data;
  const saved = info.data?.info ?? null;
  return (
    <Stack gap="lg">
      <PageHeader
        title={t("global.title")}
        description={t("global.description", { rate: info.data ? formatRate(info.data.gstRateBp) : "…" })}
        actions={
          <Button
            leftSection={<IconFileInvoice size={16} />}
            onClick={() => setRequesting(true)}
            disabled={!o?.verified || !saved}
            data-testid="invoice-apply-open"
          >
            {t("global.request")}
          </Button>
        }
      />
      {/* The notices and the form appear together once both queries are known: a notice arriving later would push
          the form down under a pointer or a cursor. */}
      {o && info.data ? (
        <>
          {!o.verified ? <VerificationGate /> : null}
          {!saved ? <Alert color="blue">{t("global.needInfo")}</Alert> : null}
          <InfoForm orgId={orgId} info={saved} />
        </>
      ) : overview.isError || info.isError ? (
        <LoadError
          error={overview.error ?? info.error}
          onRetry={() => {
            if (overview.isError) void overview.refetch();
            if (info.isError) void info.refetch();
          }}
        />
      ) : (
        <LoadingBlock />
      )}
      <RecordsSection orgId={orgId} edition="global" />
      <OrderInvoices orgId={orgId} />
      {o && saved ? (
        <ApplyDialog
          orgId={orgId}
          edition="global"
          opened={requesting}
          onClose={() => setRequesting(false)}
          billTo={saved.name}
          defaultEmail={saved.email}
          payments={o.payments}
          taxRateBp={o.taxRateBp}
        />
      ) : null}
    </Stack>
  );
}

const FIELDS = [
  ["name", true],
  ["email", true],
  ["tax_id", false],
  ["street", true],
  ["address_line1", false],
  ["address_line2", false],
  ["city", true],
  ["state", false],
  ["postal_code", true],
  ["country_code", true],
] as const;

function InfoForm({ orgId, info }: { orgId: string; info: InvoiceInfo | null }) {
  const { t } = useTranslation("invoices");
  const save = useSaveInvoiceInfo(orgId);
  const [saved, setSaved] = useState(false);
  const values = {
    name: info?.name ?? "",
    email: info?.email ?? "",
    tax_id: info?.tax_id ?? "",
    street: info?.street ?? "",
    address_line1: info?.address_line1 ?? "",
    address_line2: info?.address_line2 ?? "",
    city: info?.city ?? "",
    state: info?.state ?? "",
    postal_code: info?.postal_code ?? "",
    country_code: info?.country_code ?? "",
  };
  const { field, onSubmit, formError, form } = useZodForm(InvoiceInfoRequest, { defaultValues: values });
  useEffect(() => {
    if (form.formState.isDirty) setSaved(false);
  }, [form.formState.isDirty]);
  const submit = onSubmit(
    async (v) => {
      await save.mutateAsync(v);
      form.reset(form.getValues());
      setSaved(true);
    },
    (reason) => t("global.saveFailed", { reason }),
  );
  return (
    <Card withBorder padding="lg">
      <form onSubmit={submit} noValidate data-testid="invoice-info-form">
        <Stack>
          <Group justify="space-between">
            <Title order={4}>{t("global.info")}</Title>
            {!info ? (
              <Text size="sm" c="orange" data-testid="invoice-info-missing">
                {t("global.missing")}
              </Text>
            ) : null}
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {FIELDS.map(([name, required]) => (
              <TextInput
                key={name}
                label={t(`global.fields.${name}`)}
                required={required}
                {...field(name)}
                data-testid={`info-${name}`}
              />
            ))}
          </SimpleGrid>
          <FormError message={formError} />
          <Group justify="flex-end">
            {saved ? (
              <Text size="sm" c="green" data-testid="invoice-info-saved">
                {t("global.saved")}
              </Text>
            ) : null}
            <Button type="submit" loading={save.isPending} data-testid="invoice-info-save">
              {t("common:save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function OrderInvoices({ orgId }: { orgId: string }) {
  const { t } = useTranslation("invoices");
  const q = useQuery(orderInvoicesQuery(orgId));
  const cols: DataColumn<OrderInvoice>[] = [
    { id: "date", header: t("global.paidAt"), cell: (r) => <DateTimeCell iso={r.createdAt} /> },
    columns.code("no", t("records.invoiceNo"), (r) => r.invoiceNo),
    { id: "net", header: t("global.net"), align: "right", cell: (r) => money(r.net, r.currency) },
    {
      id: "tax",
      header: t("global.gst"),
      align: "right",
      cell: (r) => `${money(r.tax, r.currency)} (${formatRate(r.taxRateBp)}%)`,
    },
    { id: "amount", header: t("global.total"), align: "right", cell: (r) => money(r.amount, r.currency) },
    {
      id: "status",
      header: t("records.status"),
      cell: (r) => (
        <Stack gap={2} data-testid="order-invoice-status">
          <Text size="sm" c={r.status === "voided" ? "red" : undefined}>
            {r.status === "voided" ? t("global.orderVoided") : t("global.orderPaid")}
          </Text>
          {r.creditNotes.map((c) => (
            <Anchor
              key={c.creditNo}
              href={orderCreditNotePdfUrl(orgId, r.paymentId, c.creditNo)}
              size="xs"
              data-testid="order-credit-note"
            >
              {t("global.orderCredit", { no: c.creditNo, amount: money(c.amount, r.currency) })}
            </Anchor>
          ))}
        </Stack>
      ),
    },
    {
      id: "pdf",
      header: "",
      align: "right",
      cell: (r) => (
        <Anchor href={orderInvoicePdfUrl(orgId, r.paymentId)} size="sm" data-testid="order-invoice-pdf">
          {t("records.download")}
        </Anchor>
      ),
    },
  ];
  return (
    <Stack gap="xs">
      <Title order={4}>{t("global.orders")}</Title>
      {q.error ? <Alert color="red">{q.error.message}</Alert> : null}
      <DataTable
        columns={cols}
        rows={q.data?.items}
        query={q}
        getRowId={(r) => r.paymentId}
        minWidth={720}
        rowTestId="order-invoice-row"
        empty={<EmptyState icon={IconFileInvoice} title={t("global.noOrders")} text={t("global.noOrdersText")} />}
      />
    </Stack>
  );
}
