import {
  Alert,
  Badge,
  Button,
  Code,
  NumberInput,
  ScrollArea,
  Select,
  SimpleGrid,
  Text,
  TextInput,
} from "@mantine/core";
import { type AdminCodeBatch, AdminCodeBatchRequest, type Currency, VOUCHER_TYPES } from "@moonport/contracts";
import { IconDownload, IconPlus } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable, pagerOf } from "../../../components/console-kit/data-table.tsx";
import { ConfirmDialog, FormDialog, InfoDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { codeBatchesQuery, useCreateCodeBatch, useRevokeCodeBatch } from "../api/admin.ts";

const CURRENCY: Record<"cn" | "global", Currency> = { cn: "CNY", global: "USD" };

/** Back office → Voucher codes: batches with their use; generate (codes shown once, CSV download) and revoke. */
export function CodesScreen() {
  const { t } = useTranslation("admin");
  const [page, setPage] = useState(1);
  const list = useQuery(codeBatchesQuery(page));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ batch: AdminCodeBatch; codes: string[] } | null>(null);
  const [revoking, setRevoking] = useState<AdminCodeBatch | null>(null);
  const revoke = useRevokeCodeBatch();
  const columns: DataColumn<AdminCodeBatch>[] = [
    { id: "batch", header: t("codes.batch"), cell: (r) => <Code>{r.batchId}</Code> },
    { id: "edition", header: t("codes.edition"), cell: (r) => t(`editions.${r.edition}`) },
    { id: "amount", header: t("codes.amount"), align: "right", cell: (r) => money(r.amount, CURRENCY[r.edition]) },
    { id: "type", header: t("codes.type"), cell: (r) => r.voucherType },
    {
      id: "tier",
      header: t("codes.minTier"),
      cell: (r) => (r.minTier === null ? t("codes.noTier") : t(`common:tierName.${r.minTier}`)),
    },
    { id: "count", header: t("codes.count"), align: "right", cell: (r) => r.count },
    { id: "redeemed", header: t("codes.redeemed"), align: "right", cell: (r) => r.redeemed },
    {
      id: "usable",
      header: t("codes.usable"),
      align: "right",
      cell: (r) => (
        <Badge variant="light" color={r.usable > 0 ? "green" : "gray"} data-testid="batch-usable">
          {r.usable}
        </Badge>
      ),
    },
    { id: "expires", header: t("codes.expires"), cell: (r) => <DateTimeCell iso={r.expiresAt} /> },
    {
      id: "actions",
      header: "",
      align: "right",
      width: 110,
      cell: (r) =>
        r.usable > 0 ? (
          <Button size="xs" color="red" variant="light" onClick={() => setRevoking(r)} data-testid="batch-revoke">
            {t("codes.revoke")}
          </Button>
        ) : null,
    },
  ];
  return (
    <>
      <PageHeader
        title={t("codes.title")}
        description={t("codes.description")}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="batch-generate">
            {t("codes.generate")}
          </Button>
        }
      />
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.batchId}
        rowTestId="batch-row"
        minWidth={1000}
        empty={<EmptyState title={t("codes.empty")} />}
        pagination={pagerOf(list.data, page, setPage)}
      />
      <GenerateDialog opened={creating} onClose={() => setCreating(false)} onCreated={setCreated} />
      <CreatedCodes created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t("codes.revoke")}
        confirmLabel={t("codes.revoke")}
        pending={revoke.isPending}
        error={revoke.error ? t("codes.failed", { reason: revoke.error.message }) : undefined}
        onConfirm={() => revoking && revoke.mutate(revoking.batchId, { onSuccess: () => setRevoking(null) })}
      >
        <Text size="sm">{t("codes.revokeText", { batch: revoking?.batchId, usable: revoking?.usable })}</Text>
      </ConfirmDialog>
    </>
  );
}

function GenerateDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (c: { batch: AdminCodeBatch; codes: string[] }) => void;
}) {
  const { t } = useTranslation("admin");
  const create = useCreateCodeBatch();
  const { form, field, error, dialog } = useDialogForm(AdminCodeBatchRequest, {
    opened,
    onClose,
    defaultValues: {
      edition: "cn",
      count: 100,
      amount: "",
      voucherType: "activity",
      voucherDays: 30,
      validDays: 90,
      minTier: null,
    },
    submit: async (v) => onCreated(await create.mutateAsync(v)),
    failure: (reason) => t("codes.failed", { reason }),
  });
  const int = (name: "count" | "voucherDays" | "validDays", label: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field: f }) => (
        <NumberInput
          label={label}
          value={f.value as number}
          onChange={(v) => f.onChange(typeof v === "number" ? v : Number.NaN)}
          allowDecimal={false}
          min={1}
          error={error(name)}
          data-testid={`batch-${name}`}
        />
      )}
    />
  );
  return (
    <FormDialog {...dialog} title={t("codes.generate")} submitLabel={t("codes.generate")} size="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={form.control}
          name="edition"
          render={({ field: f }) => (
            <Select
              label={t("codes.edition")}
              data={(["cn", "global"] as const).map((e) => ({ value: e, label: t(`editions.${e}`) }))}
              value={f.value as string}
              onChange={(v) => f.onChange(v)}
              allowDeselect={false}
            />
          )}
        />
        <Controller
          control={form.control}
          name="voucherType"
          render={({ field: f }) => (
            <Select
              label={t("codes.type")}
              data={[...VOUCHER_TYPES]}
              value={f.value as string}
              onChange={(v) => f.onChange(v)}
              allowDeselect={false}
            />
          )}
        />
        {int("count", t("codes.form.count"))}
        <TextInput label={t("codes.form.amount")} inputMode="decimal" {...field("amount")} data-testid="batch-amount" />
        {int("voucherDays", t("codes.form.voucherDays"))}
        {int("validDays", t("codes.form.validDays"))}
        <Controller
          control={form.control}
          name="minTier"
          render={({ field: f }) => (
            <Select
              label={t("codes.form.minTier")}
              data={[
                { value: "none", label: t("codes.form.noTier") },
                ...[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: t(`common:tierName.${n}`) })),
              ]}
              value={f.value === null || f.value === undefined ? "none" : String(f.value)}
              onChange={(v) => f.onChange(v === "none" || v === null ? null : Number(v))}
              allowDeselect={false}
            />
          )}
        />
      </SimpleGrid>
    </FormDialog>
  );
}

function CreatedCodes({
  created,
  onClose,
}: {
  created: { batch: AdminCodeBatch; codes: string[] } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("admin");
  const download = () => {
    if (!created) return;
    const csv = `code,batch,edition,amount\r\n${created.codes
      .map((c) =>
        [
          c,
          created.batch.batchId,
          created.batch.edition,
          money(created.batch.amount, CURRENCY[created.batch.edition]),
        ].join(","),
      )
      .join("\r\n")}\r\n`;
    const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${created.batch.batchId}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <InfoDialog
      opened={created !== null}
      onClose={onClose}
      title={t("codes.createdTitle", { count: created?.codes.length ?? 0 })}
      doneLabel={t("codes.done")}
      actions={
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          onClick={download}
          data-testid="batch-download"
        >
          {t("codes.download")}
        </Button>
      }
    >
      <Alert color="yellow" variant="light">
        {t("codes.createdText")}
      </Alert>
      <ScrollArea h={240} type="auto">
        <Code block data-testid="batch-codes">
          {created?.codes.join("\n")}
        </Code>
      </ScrollArea>
    </InfoDialog>
  );
}
