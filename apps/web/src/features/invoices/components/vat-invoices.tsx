import { Alert, Badge, Button, Group, SegmentedControl, Stack, TextInput, Title } from "@mantine/core";
import { type InvoiceTitle, InvoiceTitleRequest } from "@moonport/contracts";
import { IconFileInvoice } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { columns } from "../../../components/console-kit/columns.tsx";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { EmptyState, LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { invoiceOverviewQuery, useCreateTitle, useInvalidateTitle } from "../api/invoices-api.ts";
import { ApplyDialog } from "./apply-dialog.tsx";
import { RecordsSection } from "./invoice-records.tsx";
import { VerificationGate } from "./verification-gate.tsx";

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
      {/* The notices above the titles depend on the overview: the titles and their Add button appear with them, so
          nothing is pushed down under a pointer about to click it (a click on "Add title" was lost that way). */}
      {o ? (
        <>
          {!o.verified ? <VerificationGate /> : null}
          {o.verified && normalTitles.length === 0 ? <Alert color="blue">{t("needTitle")}</Alert> : null}
          <TitlesSection orgId={orgId} titles={o.titles} query={overview} onAdd={() => setAddingTitle(true)} />
        </>
      ) : overview.isError ? (
        <LoadError error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <LoadingBlock />
      )}
      <RecordsSection orgId={orgId} edition="cn" />
      {o ? (
        <ApplyDialog
          orgId={orgId}
          edition="cn"
          taxRateBp={o.taxRateBp}
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
