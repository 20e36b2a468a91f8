import { Anchor, Button, Group, SegmentedControl, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { type AdminInvoice, IssueInvoiceRequest, ReasonRequest } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import {
  InvoiceAmountCell,
  InvoiceStatusCell,
  InvoiceTitleCell,
} from "../../../components/console-kit/invoice-status.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { adminInvoicePdfUrl, invoiceQueueQuery, useSellerAction } from "../api/invoices.ts";
import { ImportInvoiceDialog } from "./import-invoice-dialog.tsx";
import { queueColumns } from "./queue-columns.tsx";
import { QueueConfirmDialog } from "./queue-confirm-dialog.tsx";

type Dialog = { row: AdminInvoice; kind: "issue" | "complete" | "fail" | "void" | "confirm" } | null;

/**
 * Queues → Invoices: applications to issue (with the tax system's number) or fail (with a reason), and issued
 * invoices with the seller's side of red-letter voiding (start, confirm or deny the buyer's request, withdraw,
 * issue the red-letter invoice); and recording an invoice issued outside the platform (Import).
 */
export function InvoicesQueue() {
  const { t } = useTranslation("admin");
  const [queue, setQueue] = useState<"waiting" | "issued">("waiting");
  const list = useQuery(invoiceQueueQuery(queue));
  const act = useSellerAction();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [importing, setImporting] = useState(false);
  const columns: DataColumn<AdminInvoice>[] = [
    queueColumns.created(t("invoices.applied")),
    queueColumns.org(t("queues.organization")),
    {
      id: "title",
      header: t("invoices.title"),
      cell: (r) => (
        <InvoiceTitleCell
          title={r.title}
          caption={[
            r.currency === "CNY"
              ? `${t(`invoices.types.${r.invoiceType}`)} · ${t(`invoices.methods.${r.method}`)}`
              : t("invoices.taxInvoice"),
            r.email,
          ]
            .filter(Boolean)
            .join(" · ")}
        >
          {r.uscc ? <Text size="xs">{r.currency === "CNY" ? `USCC ${r.uscc}` : `Tax ID ${r.uscc}`}</Text> : null}
          {r.billTo ? (
            <Text size="xs">
              {[r.billTo.street, r.billTo.city, r.billTo.postal_code, r.billTo.country_code].filter(Boolean).join(", ")}
            </Text>
          ) : null}
          {r.invoiceType === "special" ? (
            <Text size="xs">
              {[r.bankName, r.bankAccount, r.companyAddress, r.companyPhone].filter(Boolean).join(" · ")}
            </Text>
          ) : null}
        </InvoiceTitleCell>
      ),
    },
    {
      id: "amount",
      header: t("queues.amount"),
      align: "right",
      cell: (r) => <InvoiceAmountCell invoice={r} caption={(p) => t("invoices.netTax", p)} />,
    },
    {
      id: "status",
      header: t("invoices.status"),
      cell: (r) => (
        <Stack gap={2}>
          <InvoiceStatusCell status={r.status} currency={r.currency} redLetter={r.redLetters[0]} />
          {r.invoiceNo && r.pdfAvailable ? (
            <Anchor href={adminInvoicePdfUrl(r.id)} size="xs" ff="monospace">
              {r.invoiceNo}
            </Anchor>
          ) : r.invoiceNo ? (
            // An imported invoice has no PDF here: its number only.
            <Text size="xs" ff="monospace">
              {r.invoiceNo}
            </Text>
          ) : null}
          {r.voidPdfAvailable && r.redInvoiceNo ? (
            <Anchor href={adminInvoicePdfUrl(r.id, "void")} size="xs" ff="monospace">
              {r.redInvoiceNo}
            </Anchor>
          ) : null}
        </Stack>
      ),
    },
    queueColumns.actions("actions", 220, (r) => {
      const round = r.redLetters[0];
      const open = round && round.closedAt === null ? round : null;
      const button = (label: string, onClick: () => void, testId: string, color?: string) => (
        <Button
          key={testId}
          size="xs"
          variant={color ? "light" : "filled"}
          color={color}
          onClick={onClick}
          data-testid={testId}
        >
          {label}
        </Button>
      );
      const buttons = [];
      if (r.status === "waiting") {
        buttons.push(button(t("invoices.issue"), () => setDialog({ row: r, kind: "issue" }), "invoice-issue"));
        buttons.push(button(t("invoices.fail"), () => setDialog({ row: r, kind: "fail" }), "invoice-fail", "red"));
      }
      if (r.status === "success") {
        buttons.push(button(t("invoices.void"), () => setDialog({ row: r, kind: "void" }), "invoice-void", "orange"));
      }
      if (open?.state === "03") {
        buttons.push(button(t("invoices.confirm"), () => setDialog({ row: r, kind: "confirm" }), "red-letter-confirm"));
        buttons.push(
          button(t("invoices.deny"), () => act.mutate({ id: r.id, kind: "deny" }), "red-letter-deny", "red"),
        );
      }
      if (open && (open.state === "01" || open.state === "04")) {
        buttons.push(
          button(
            r.currency === "CNY" ? t("invoices.complete") : t("invoices.completeCredit"),
            () => setDialog({ row: r, kind: "complete" }),
            "red-letter-complete",
          ),
        );
      }
      if (open && open.initiator === "seller") {
        buttons.push(
          button(
            t("invoices.withdraw"),
            () => act.mutate({ id: r.id, kind: "withdraw" }),
            "red-letter-withdraw",
            "gray",
          ),
        );
      }
      return (
        <Group gap={6} justify="flex-end">
          {buttons}
        </Group>
      );
    }),
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <SegmentedControl
          w="fit-content"
          value={queue}
          onChange={(v) => setQueue(v as "waiting" | "issued")}
          data={[
            { value: "waiting", label: t("invoices.waiting") },
            { value: "issued", label: t("invoices.issued") },
          ]}
          data-testid="invoice-queue-filter"
        />
        <Button variant="light" onClick={() => setImporting(true)} data-testid="invoice-import">
          {t("invoiceImport.title")}
        </Button>
      </Group>
      {act.error ? (
        <Text c="red" size="sm" data-testid="invoice-queue-error">
          {t("queues.failed", { reason: act.error.message })}
        </Text>
      ) : null}
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        rowTestId="invoice-queue-row"
        minWidth={1100}
        empty={<EmptyState title={queue === "waiting" ? t("invoices.noWaiting") : t("invoices.noIssued")} />}
      />
      <NumberDialog
        target={dialog?.kind === "issue" || dialog?.kind === "complete" ? dialog : null}
        onClose={() => setDialog(null)}
      />
      <ReasonDialog
        target={dialog?.kind === "fail" || dialog?.kind === "void" ? dialog : null}
        onClose={() => setDialog(null)}
      />
      <ConfirmVoidingDialog target={dialog?.kind === "confirm" ? dialog.row : null} onClose={() => setDialog(null)} />
      <ImportInvoiceDialog
        opened={importing}
        onClose={() => setImporting(false)}
        onImported={() => setQueue("issued")}
      />
    </Stack>
  );
}

function NumberDialog({ target, onClose }: { target: Dialog; onClose: () => void }) {
  const { t } = useTranslation("admin");
  const act = useSellerAction();
  const { field, dialog } = useDialogForm(IssueInvoiceRequest, {
    opened: target !== null,
    onClose,
    defaultValues: { invoiceNo: "" },
    submit: (v) =>
      act.mutateAsync({ id: target!.row.id, kind: target!.kind as "issue" | "complete", invoiceNo: v.invoiceNo }),
    failure: (reason) => t("queues.failed", { reason }),
  });
  const complete = target?.kind === "complete";
  // A global document may be left unnumbered: the platform numbers it (INV-… / CN-…); cn needs the tax system's.
  const cn = target?.row.currency !== "USD";
  const action = complete ? (cn ? t("invoices.complete") : t("invoices.completeCredit")) : t("invoices.issue");
  return (
    <FormDialog {...dialog} title={action} submitLabel={action}>
      <Text size="sm">
        {complete
          ? t(cn ? "invoices.completeText" : "invoices.completeCreditText", { title: target?.row.title ?? "" })
          : t("invoices.issueText", { title: target?.row.title ?? "", email: target?.row.email ?? "" })}
      </Text>
      <TextInput
        label={
          complete
            ? cn
              ? t("invoices.redNumber")
              : t("invoices.creditNumber")
            : cn
              ? t("invoices.number")
              : t("invoices.numberOptional")
        }
        description={cn ? undefined : t("invoices.numberHint")}
        required={cn}
        {...field("invoiceNo")}
        data-testid="invoice-number"
      />
    </FormDialog>
  );
}

function ReasonDialog({ target, onClose }: { target: Dialog; onClose: () => void }) {
  const { t } = useTranslation("admin");
  const act = useSellerAction();
  const { field, dialog } = useDialogForm(ReasonRequest, {
    opened: target !== null,
    onClose,
    defaultValues: { reason: "" },
    submit: (v) => act.mutateAsync({ id: target!.row.id, kind: target!.kind as "fail" | "void", reason: v.reason }),
    failure: (reason) => t("queues.failed", { reason }),
  });
  const fail = target?.kind === "fail";
  return (
    <FormDialog
      {...dialog}
      title={fail ? t("invoices.fail") : t("invoices.void")}
      submitLabel={fail ? t("invoices.fail") : t("invoices.void")}
      danger
    >
      <Text size="sm">
        {fail
          ? t("invoices.failText")
          : t(
              `invoices.${target?.row.titleType === "personal" ? "voidPersonal" : "voidCompany"}${target?.row.currency === "USD" ? "Global" : ""}`,
            )}
      </Text>
      <Textarea label={t("invoices.reason")} autosize minRows={2} {...field("reason")} data-testid="invoice-reason" />
    </FormDialog>
  );
}

/**
 * Confirming the buyer's voiding request (03 → 04) cannot be taken back by the seller's side alone: the next step
 * issues the red-letter invoice or credit note, so the operator sees what is confirmed first.
 */
function ConfirmVoidingDialog({ target, onClose }: { target: AdminInvoice | null; onClose: () => void }) {
  const { t } = useTranslation("admin");
  const act = useSellerAction();
  return (
    <QueueConfirmDialog
      target={target}
      onClose={onClose}
      label={t("invoices.confirm")}
      run={(row) => act.mutateAsync({ id: row.id, kind: "confirm" })}
    >
      <Text size="sm" data-testid="red-letter-confirm-text">
        {t(target?.currency === "USD" ? "invoices.confirmTextGlobal" : "invoices.confirmText", {
          title: target?.title ?? "",
          no: target?.invoiceNo ?? "",
          reason: target?.redLetters[0]?.reason ?? "",
        })}
      </Text>
    </QueueConfirmDialog>
  );
}
