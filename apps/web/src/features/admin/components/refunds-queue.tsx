import { Badge, Button, Group, SegmentedControl, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type AdminRefund, CompleteTransferRefundRequest, RejectRefundRequest } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { ConfirmDialog, FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { REFUND_STATUS_COLOR } from "../../../lib/refund-status.ts";
import { refundQueueQuery, useDecideRefund } from "../api/refunds.ts";
import { queueColumns } from "./queue-columns.tsx";

const FILTERS = ["open", "requested", "refunding", "failed", "refunded", "rejected"] as const;

/**
 * Queues → Refunds: approve a requested refund (the cash leaves the balance, the provider refunds), reject it with
 * a reason, retry a failed one, and mark one paid back by bank transfer done with its reference. Every decision
 * is audited by the server.
 */
export function RefundsQueue() {
  const { t } = useTranslation("admin");
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>("open");
  const list = useQuery(refundQueueQuery(filter === "open" ? undefined : filter));
  const decide = useDecideRefund();
  const [confirming, setConfirming] = useState<{ refund: AdminRefund; action: "approve" | "retry" } | null>(null);
  const [rejecting, setRejecting] = useState<AdminRefund | null>(null);
  const [completing, setCompleting] = useState<AdminRefund | null>(null);
  const columns: DataColumn<AdminRefund>[] = [
    queueColumns.created(t("refunds.requested")),
    queueColumns.org(t("queues.organization")),
    { id: "amount", header: t("queues.amount"), align: "right", cell: (r) => money(r.amount, r.currency) },
    {
      id: "payment",
      header: t("refunds.payment"),
      cell: (r) => (
        <Stack gap={0}>
          <Text size="sm">
            {r.paymentType} · {r.provider}
          </Text>
          <Text size="xs" c="dimmed">
            {r.paymentId}
          </Text>
        </Stack>
      ),
    },
    {
      id: "status",
      header: t("queues.status"),
      cell: (r) => (
        <Stack gap={2}>
          <Badge color={REFUND_STATUS_COLOR[r.status]} variant="light" data-testid="admin-refund-status">
            {t(`refunds.status.${r.status}`)}
          </Badge>
          {r.failureReason ? (
            <Text size="xs" c="red">
              {r.failureReason}
            </Text>
          ) : null}
          {r.reason ? (
            <Text size="xs" c="dimmed">
              {r.reason}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    queueColumns.actions("actions", 220, (r) => (
      <Group gap={6} justify="flex-end" wrap="nowrap">
        {r.status === "requested" ? (
          <>
            <Button
              size="xs"
              onClick={() => setConfirming({ refund: r, action: "approve" })}
              data-testid="refund-approve"
            >
              {t("queues.approve")}
            </Button>
            <Button size="xs" color="red" variant="light" onClick={() => setRejecting(r)} data-testid="refund-reject">
              {t("queues.reject")}
            </Button>
          </>
        ) : null}
        {r.status === "failed" ? (
          <Button size="xs" onClick={() => setConfirming({ refund: r, action: "retry" })} data-testid="refund-retry">
            {t("refunds.retry")}
          </Button>
        ) : null}
        {r.status === "refunding" && r.manual ? (
          <Button size="xs" onClick={() => setCompleting(r)} data-testid="refund-complete">
            {t("refunds.complete")}
          </Button>
        ) : null}
      </Group>
    )),
  ];
  const target = confirming?.refund;
  return (
    <Stack gap="sm">
      <SegmentedControl
        w="fit-content"
        size="xs"
        value={filter}
        onChange={(v) => setFilter(v as typeof filter)}
        data={FILTERS.map((f) => ({ value: f, label: t(f === "open" ? "refunds.open" : `refunds.status.${f}`) }))}
      />
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        rowTestId="admin-refund-row"
        minWidth={900}
        empty={<EmptyState title={t("refunds.empty")} />}
      />
      <ConfirmDialog
        opened={confirming !== null}
        onClose={() => {
          setConfirming(null);
          decide.reset();
        }}
        title={t(confirming?.action === "retry" ? "refunds.retry" : "queues.approve")}
        confirmLabel={t(confirming?.action === "retry" ? "refunds.retry" : "queues.approve")}
        danger={false}
        pending={decide.isPending}
        error={decide.error ? t("queues.failed", { reason: decide.error.message }) : undefined}
        onConfirm={() =>
          confirming &&
          decide.mutate(
            { id: confirming.refund.id, action: confirming.action },
            {
              onSuccess: () => {
                setConfirming(null);
                notifications.show({ color: "teal", message: t("refunds.approved") });
              },
            },
          )
        }
      >
        <Text size="sm">
          {target
            ? t(target.manual ? "refunds.approveManualText" : "refunds.approveText", {
                amount: money(target.amount, target.currency),
                name: target.orgName,
              })
            : null}
        </Text>
      </ConfirmDialog>
      <TextDecisionDialog kind="reject" target={rejecting} onClose={() => setRejecting(null)} />
      <TextDecisionDialog kind="complete" target={completing} onClose={() => setCompleting(null)} />
    </Stack>
  );
}

/** The one field each text decision needs: the rejection's reason, or the bank transfer's reference. */
const TEXT_DECISION = {
  reject: z.object({ text: RejectRefundRequest.shape.reason }),
  complete: z.object({ text: CompleteTransferRefundRequest.shape.reference }),
};

function TextDecisionDialog({
  kind,
  target,
  onClose,
}: {
  kind: "reject" | "complete";
  target: AdminRefund | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("admin");
  const decide = useDecideRefund();
  const { field, dialog } = useDialogForm(TEXT_DECISION[kind], {
    opened: target !== null,
    onClose,
    defaultValues: { text: "" },
    submit: (v) =>
      decide.mutateAsync(
        kind === "reject"
          ? { id: target!.id, action: "reject", reason: v.text }
          : { id: target!.id, action: "complete", reference: v.text },
      ),
    failure: (reason) => t("queues.failed", { reason }),
  });
  const title = t(kind === "reject" ? "queues.reject" : "refunds.complete");
  const Input = kind === "reject" ? Textarea : TextInput;
  return (
    <FormDialog {...dialog} title={title} submitLabel={title} danger={kind === "reject"}>
      <Text size="sm">
        {target
          ? t(`refunds.${kind}Text`, { amount: money(target.amount, target.currency), name: target.orgName })
          : null}
      </Text>
      <Input
        label={t(kind === "reject" ? "queues.rejectReason" : "refunds.bankReference")}
        {...field("text")}
        data-testid={kind === "reject" ? "refund-reject-reason" : "refund-reference"}
      />
    </FormDialog>
  );
}
