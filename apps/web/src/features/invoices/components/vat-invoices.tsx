import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import {
  ApplyInvoiceRequest,
  type Invoice,
  type InvoiceablePayment,
  type InvoiceTitle,
  InvoiceTitleRequest,
  parseMoney,
  ReasonRequest,
  splitTax,
  translateValidation,
} from "@moonport/contracts";
import { IconFileInvoice } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { columns } from "../../../components/console-kit/columns.tsx";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { InvoiceAmountCell, InvoiceStatusCell } from "../../../components/console-kit/invoice-status.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import {
  invoiceOverviewQuery,
  invoicePdfUrl,
  invoicesQuery,
  useApplyInvoice,
  useCreateTitle,
  useInvalidateTitle,
  useInvoiceAction,
} from "../api/invoices-api.ts";

/** cn: invoice management and records (§2): titles, the application over paid recharges, records and voiding. */
export function VatInvoices({ orgId }: { orgId: string }) {
  const { t } = useTranslation("invoices");
  const overview = useQuery(invoiceOverviewQuery(orgId));
  const [applying, setApplying] = useState(false);
  const [addingTitle, setAddingTitle] = useState(false);
  const o = overview.data;
  const normalTitles = o?.titles.filter((x) => x.status === "normal") ?? [];
  return (
    <Stack gap="lg">
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <Button
            leftSection={<IconFileInvoice size={16} />}
            onClick={() => setApplying(true)}
            disabled={!o?.verified || normalTitles.length === 0}
            data-testid="invoice-apply-open"
          >
            {t("apply.open")}
          </Button>
        }
      />
      {o && !o.verified ? (
        <Alert color="yellow" data-testid="invoice-gate">
          {t("gate")}{" "}
          <Anchor component={Link} to={paths.organization("authentication")}>
            {t("gateLink")}
          </Anchor>
        </Alert>
      ) : null}
      {o?.verified && normalTitles.length === 0 ? <Alert color="blue">{t("needTitle")}</Alert> : null}
      <TitlesSection orgId={orgId} titles={o?.titles} query={overview} onAdd={() => setAddingTitle(true)} />
      <RecordsSection orgId={orgId} />
      {o ? (
        <ApplyDialog
          orgId={orgId}
          opened={applying}
          onClose={() => setApplying(false)}
          titles={normalTitles}
          payments={o.payments}
        />
      ) : null}
      <TitleDialog orgId={orgId} opened={addingTitle} onClose={() => setAddingTitle(false)} />
    </Stack>
  );
}

function TitlesSection({
  orgId,
  titles,
  query,
  onAdd,
}: {
  orgId: string;
  titles: InvoiceTitle[] | undefined;
  query: Parameters<typeof DataTable>[0]["query"];
  onAdd: () => void;
}) {
  const { t } = useTranslation("invoices");
  const invalidate = useInvalidateTitle(orgId);
  const cols: DataColumn<InvoiceTitle>[] = [
    columns.strong("title", t("titles.title"), (r) => r.title),
    { id: "type", header: t("titles.type"), cell: (r) => t(`titleType.${r.titleType}`) },
    columns.text("uscc", t("titles.uscc"), (r) => r.uscc),
    columns.text("bank", t("titles.bank"), (r) => [r.bankName, r.bankAccount].filter(Boolean).join(" ")),
    {
      id: "status",
      header: t("titles.status"),
      cell: (r) => (
        <Badge variant="light" color={r.status === "normal" ? "green" : "gray"}>
          {t(`titleStatus.${r.status}`)}
        </Badge>
      ),
    },
    columns.actions(
      (r) => r.title,
      (r) =>
        r.status === "normal"
          ? [{ label: t("titles.invalidate"), danger: true, onClick: () => invalidate.mutate(r.id) }]
          : [],
    ),
  ];
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={4}>{t("titles.heading")}</Title>
        <Button variant="light" size="xs" onClick={onAdd} data-testid="title-add">
          {t("titles.add")}
        </Button>
      </Group>
      <DataTable
        columns={cols}
        rows={titles}
        query={query}
        getRowId={(r) => r.id}
        minWidth={720}
        rowTestId="title-row"
        empty={<EmptyState title={t("titles.empty")} text={t("titles.emptyText")} />}
      />
    </Stack>
  );
}

function TitleDialog({ orgId, opened, onClose }: { orgId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation("invoices");
  const create = useCreateTitle(orgId);
  const { field, form, dialog } = useDialogForm(InvoiceTitleRequest, {
    opened,
    onClose,
    defaultValues: { titleType: "company", title: "" },
    submit: (v) => create.mutateAsync(v),
    failure: (reason) => t("failure", { reason }),
  });
  const type = form.watch("titleType");
  return (
    <FormDialog {...dialog} title={t("titles.add")} size="lg">
      <SegmentedControl
        value={type}
        onChange={(v) => form.setValue("titleType", v as "personal" | "company")}
        data={[
          { value: "company", label: t("titleType.company") },
          { value: "personal", label: t("titleType.personal") },
        ]}
        data-testid="title-type"
      />
      <TextInput label={t("titles.title")} required {...field("title")} data-testid="title-name" />
      {type === "company" ? (
        <>
          <TextInput label={t("titles.uscc")} required {...field("uscc")} data-testid="title-uscc" />
          <TextInput
            label={t("titles.bankName")}
            description={t("titles.specialHint")}
            {...field("bankName")}
            data-testid="title-bank"
          />
          <TextInput label={t("titles.bankAccount")} {...field("bankAccount")} data-testid="title-account" />
          <TextInput label={t("titles.companyAddress")} {...field("companyAddress")} data-testid="title-address" />
          <TextInput label={t("titles.companyPhone")} {...field("companyPhone")} data-testid="title-phone" />
        </>
      ) : null}
    </FormDialog>
  );
}

/** Per recharge: picked or not, and the amount typed (starts at what is available). */
type Pick = Record<string, { on: boolean; amount: string }>;

function ApplyDialog({
  orgId,
  opened,
  onClose,
  titles,
  payments,
}: {
  orgId: string;
  opened: boolean;
  onClose: () => void;
  titles: InvoiceTitle[];
  payments: InvoiceablePayment[];
}) {
  const { t } = useTranslation("invoices");
  const locale = useLocale();
  const apply = useApplyInvoice(orgId);
  const open = payments.filter((p) => BigInt(p.available) > 0n);
  const [titleId, setTitleId] = useState<string | null>(null);
  const [invoiceType, setInvoiceType] = useState<"general" | "special">("general");
  const [method, setMethod] = useState<"electronic" | "paper">("electronic");
  const [email, setEmail] = useState("");
  const [picked, setPicked] = useState<Pick>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const currency = payments[0]?.currency ?? "CNY";
  const items = open
    .filter((p) => picked[p.id]?.on)
    .map((p) => ({ paymentId: p.id, amount: picked[p.id]!.amount.trim() }));
  let total = 0n;
  for (const i of items) if (/^\d{1,9}(\.\d{1,2})?$/.test(i.amount)) total += parseMoney(i.amount);
  const split = splitTax(total, 900);
  const close = () => {
    setPicked({});
    setErrors({});
    setFailure(null);
    onClose();
  };
  const submit = () => {
    setFailure(null);
    const body = { titleId: titleId ?? "", invoiceType, method, email, items };
    const parsed = ApplyInvoiceRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), translateValidation(i.message, locale)])),
      );
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
    <Modal opened={opened} onClose={close} title={t("apply.title")} size="xl" centered>
      <Stack>
        <Select
          label={t("apply.invoiceTitle")}
          data={titles.map((x) => ({ value: x.id, label: `${x.title} (${t(`titleType.${x.titleType}`)})` }))}
          value={titleId}
          onChange={setTitleId}
          error={errors.titleId}
          required
          data-testid="apply-title"
          comboboxProps={{ withinPortal: true }}
        />
        <Group grow align="flex-start">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t("apply.invoiceType")}
            </Text>
            <SegmentedControl
              value={invoiceType}
              onChange={(v) => setInvoiceType(v as "general" | "special")}
              data={[
                { value: "general", label: t("invoiceType.general") },
                { value: "special", label: t("invoiceType.special") },
              ]}
              data-testid="apply-type"
            />
            {errors.invoiceType ? (
              <Text size="xs" c="red">
                {errors.invoiceType}
              </Text>
            ) : null}
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t("apply.method")}
            </Text>
            <SegmentedControl
              value={method}
              onChange={(v) => setMethod(v as "electronic" | "paper")}
              data={[
                { value: "electronic", label: t("method.electronic") },
                { value: "paper", label: t("method.paper") },
              ]}
            />
          </Stack>
        </Group>
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
          {t("apply.payments")}
        </Text>
        {open.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("apply.noPayments")}
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
          {t("apply.total", {
            total: money(total, currency),
            net: money(split.net, currency),
            tax: money(split.tax, currency),
          })}
        </Text>
        {failure ? (
          <Alert color="red" data-testid="apply-error">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t("common:cancel")}
          </Button>
          <Button onClick={submit} loading={apply.isPending} data-testid="apply-submit">
            {t("apply.submit")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A nano-unit amount as the form's "12.50" (available amounts of recharges are whole cents). */
function formatAmount(nanos: string): string {
  const n = BigInt(nanos);
  const cents = n / 10_000_000n;
  return `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
}

function RecordsSection({ orgId }: { orgId: string }) {
  const { t } = useTranslation("invoices");
  const [page, setPage] = useState(1);
  const q = useQuery(invoicesQuery(orgId, page));
  const action = useInvoiceAction(orgId);
  const [voiding, setVoiding] = useState<Invoice | null>(null);
  const act = (id: string, a: "withdraw" | "confirm" | "deny" | "unvoid") => action.mutate({ id, action: a });
  const cols: DataColumn<Invoice>[] = [
    { id: "created", header: t("records.createdAt"), cell: (r) => <DateTimeCell iso={r.createdAt} /> },
    {
      id: "title",
      header: t("records.title"),
      cell: (r) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {r.title}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`invoiceType.${r.invoiceType}`)} · {t(`method.${r.method}`)}
          </Text>
        </Stack>
      ),
    },
    {
      id: "amount",
      header: t("records.amount"),
      align: "right",
      cell: (r) => <InvoiceAmountCell invoice={r} caption={(p) => t("records.netTax", p)} />,
    },
    {
      id: "status",
      header: t("records.status"),
      cell: (r) => <InvoiceStatusCell status={r.status} redLetter={r.redLetters[0]} failReason={r.failReason} />,
    },
    {
      id: "no",
      header: t("records.invoiceNo"),
      cell: (r) =>
        r.invoiceNo ? (
          <Stack gap={0}>
            <Text size="sm" ff="monospace">
              {r.invoiceNo}
            </Text>
            {r.pdfAvailable ? (
              <Anchor href={invoicePdfUrl(orgId, r.id)} size="xs" data-testid="invoice-pdf">
                {t("records.download")}
              </Anchor>
            ) : null}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    columns.actions(
      (r) => r.title,
      (r) => {
        const round = r.redLetters[0];
        const open = round && round.closedAt === null ? round : null;
        const out = [];
        if (r.status === "waiting")
          out.push({ label: t("records.withdraw"), danger: true, onClick: () => act(r.id, "withdraw") });
        if (r.status === "success") out.push({ label: t("records.void"), onClick: () => setVoiding(r) });
        if (open?.state === "02") {
          out.push({ label: t("records.confirm"), onClick: () => act(r.id, "confirm") });
          out.push({ label: t("records.deny"), danger: true, onClick: () => act(r.id, "deny") });
        }
        if (open && open.initiator === "buyer" && ["01", "03", "04"].includes(open.state)) {
          out.push({ label: t("records.unvoid"), onClick: () => act(r.id, "unvoid") });
        }
        return out;
      },
    ),
  ];
  return (
    <Stack gap="xs">
      <Title order={4}>{t("records.heading")}</Title>
      {action.error ? (
        <Alert color="red" data-testid="invoice-action-error">
          {action.error.message}
        </Alert>
      ) : null}
      <DataTable
        columns={cols}
        rows={q.data?.items}
        query={q}
        getRowId={(r) => r.id}
        minWidth={980}
        rowTestId="invoice-row"
        pagination={q.data ? { page, pageSize: 10, total: q.data.total, onChange: setPage } : undefined}
        empty={<EmptyState icon={IconFileInvoice} title={t("records.empty")} text={t("records.emptyText")} />}
      />
      <VoidDialog orgId={orgId} target={voiding} onClose={() => setVoiding(null)} />
    </Stack>
  );
}

function VoidDialog({ orgId, target, onClose }: { orgId: string; target: Invoice | null; onClose: () => void }) {
  const { t } = useTranslation("invoices");
  const action = useInvoiceAction(orgId);
  const { field, dialog } = useDialogForm(ReasonRequest, {
    opened: target !== null,
    onClose,
    defaultValues: { reason: "" },
    submit: (v) => action.mutateAsync({ id: target!.id, action: "red-letter", reason: v.reason }),
    failure: (reason) => t("failure", { reason }),
  });
  return (
    <FormDialog {...dialog} title={t("void.title")} submitLabel={t("void.submit")} danger>
      <Text size="sm">{target?.titleType === "personal" ? t("void.personal") : t("void.company")}</Text>
      <Textarea label={t("void.reason")} autosize minRows={2} {...field("reason")} data-testid="void-reason" />
    </FormDialog>
  );
}
