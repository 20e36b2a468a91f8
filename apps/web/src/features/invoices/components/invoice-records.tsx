import { Alert, Anchor, Stack, Text, Textarea, Title } from "@mantine/core";
import { type Invoice, ReasonRequest } from "@moonport/contracts";
import { IconFileInvoice } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { columns } from "../../../components/console-kit/columns.tsx";
import { type DataColumn, DataTable, usePagedTable } from "../../../components/console-kit/data-table.tsx";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import {
  InvoiceAmountCell,
  InvoiceStatusCell,
  InvoiceTitleCell,
} from "../../../components/console-kit/invoice-status.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { invoicePdfUrl, invoicesQuery, useInvoiceAction } from "../api/invoices-api.ts";

/**
 * The invoice records of either edition with the buyer's moves: withdraw an application, request voiding (cn: a
 * red-letter invoice; global: a credit note), answer the seller's request, withdraw one's own; and the PDFs.
 */
export function RecordsSection({ orgId, edition }: { orgId: string; edition: "cn" | "global" }) {
  const { t } = useTranslation("invoices");
  const cn = edition === "cn";
  const records = usePagedTable((page) => invoicesQuery(orgId, page));
  const action = useInvoiceAction(orgId);
  const [voiding, setVoiding] = useState<Invoice | null>(null);
  const act = (id: string, a: "withdraw" | "confirm" | "deny" | "unvoid") => action.mutate({ id, action: a });
  const cols: DataColumn<Invoice>[] = [
    { id: "created", header: t("records.createdAt"), cell: (r) => <DateTimeCell iso={r.createdAt} /> },
    {
      id: "title",
      header: t("records.title"),
      cell: (r) => (
        <InvoiceTitleCell
          title={r.title}
          caption={cn ? `${t(`invoiceType.${r.invoiceType}`)} · ${t(`method.${r.method}`)}` : t("records.taxInvoice")}
        />
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
      cell: (r) => (
        <InvoiceStatusCell
          status={r.status}
          currency={r.currency}
          redLetter={r.redLetters[0]}
          failReason={r.failReason}
        />
      ),
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
            {r.redInvoiceNo ? (
              <Text size="xs" c="dimmed" ff="monospace">
                {cn ? t("records.redNo", { no: r.redInvoiceNo }) : t("records.creditNo", { no: r.redInvoiceNo })}
              </Text>
            ) : null}
            {r.voidPdfAvailable ? (
              <Anchor href={invoicePdfUrl(orgId, r.id, "void")} size="xs" data-testid="invoice-void-pdf">
                {cn ? t("records.downloadRed") : t("records.downloadCredit")}
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
        if (r.status === "success")
          out.push({ label: cn ? t("records.void") : t("records.voidGlobal"), onClick: () => setVoiding(r) });
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
      <Title order={4}>{cn ? t("records.heading") : t("global.taxInvoices")}</Title>
      {action.error ? (
        <Alert color="red" data-testid="invoice-action-error">
          {action.error.message}
        </Alert>
      ) : null}
      <DataTable
        columns={cols}
        {...records.table}
        getRowId={(r) => r.id}
        minWidth={980}
        rowTestId="invoice-row"
        empty={<EmptyState icon={IconFileInvoice} title={t("records.empty")} text={t("records.emptyText")} />}
      />
      <VoidDialog orgId={orgId} cn={cn} target={voiding} onClose={() => setVoiding(null)} />
    </Stack>
  );
}

function VoidDialog({
  orgId,
  cn,
  target,
  onClose,
}: {
  orgId: string;
  cn: boolean;
  target: Invoice | null;
  onClose: () => void;
}) {
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
      <Text size="sm">
        {t(`void.${target?.titleType === "personal" ? "personal" : "company"}${cn ? "" : "Global"}`)}
      </Text>
      <Textarea label={t("void.reason")} autosize minRows={2} {...field("reason")} data-testid="void-reason" />
    </FormDialog>
  );
}
