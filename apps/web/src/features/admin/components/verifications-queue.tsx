import { Button, Group, Stack, Text, Textarea } from "@mantine/core";
import { type AdminVerification, RejectVerificationRequest } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useDecideVerification, verificationsQuery } from "../api/admin.ts";
import { queueColumns } from "./queue-columns.tsx";
import { QueueConfirmDialog } from "./queue-confirm-dialog.tsx";

/** Queues → Verifications: an organization's submitted real-name details, approved or rejected with a reason. */
export function VerificationsQueue() {
  const { t } = useTranslation("admin");
  const list = useQuery(verificationsQuery());
  const decide = useDecideVerification();
  const [approving, setApproving] = useState<AdminVerification | null>(null);
  const [rejecting, setRejecting] = useState<AdminVerification | null>(null);
  const columns: DataColumn<AdminVerification>[] = [
    queueColumns.created(t("queues.created")),
    queueColumns.org(t("queues.organization")),
    { id: "kind", header: t("queues.kind"), cell: (r) => t(`queues.kinds.${r.kind}`) },
    {
      id: "details",
      header: t("queues.details"),
      cell: (r) => (
        <Stack gap={0}>
          {Object.entries(r.details).map(([k, v]) => (
            <Text key={k} size="xs">
              <Text span c="dimmed" size="xs">
                {k}:
              </Text>{" "}
              {v}
            </Text>
          ))}
        </Stack>
      ),
    },
    queueColumns.actions("actions", 200, (r) => (
      <Group gap={6} justify="flex-end" wrap="nowrap">
        <Button size="xs" onClick={() => setApproving(r)} data-testid="verification-approve">
          {t("queues.approve")}
        </Button>
        <Button size="xs" color="red" variant="light" onClick={() => setRejecting(r)} data-testid="verification-reject">
          {t("queues.reject")}
        </Button>
      </Group>
    )),
  ];
  return (
    <>
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        rowTestId="verification-row"
        minWidth={900}
        empty={<EmptyState title={t("queues.noVerifications")} />}
      />
      <QueueConfirmDialog
        target={approving}
        onClose={() => setApproving(null)}
        label={t("queues.approve")}
        run={(row) => decide.mutateAsync({ id: row.id, decision: "approve" })}
      >
        <Text size="sm">{t("queues.approveText", { name: approving?.orgName })}</Text>
      </QueueConfirmDialog>
      <RejectDialog target={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}

function RejectDialog({ target, onClose }: { target: AdminVerification | null; onClose: () => void }) {
  const { t } = useTranslation("admin");
  const decide = useDecideVerification();
  const { field, dialog } = useDialogForm(RejectVerificationRequest, {
    opened: target !== null,
    onClose,
    defaultValues: { reason: "" },
    submit: (v) => decide.mutateAsync({ id: target!.id, decision: "reject", reason: v.reason }),
    failure: (reason) => t("queues.failed", { reason }),
  });
  return (
    <FormDialog {...dialog} title={t("queues.reject")} submitLabel={t("queues.reject")} danger>
      <Text size="sm">{t("queues.rejectText", { name: target?.orgName ?? "" })}</Text>
      <Textarea
        label={t("queues.rejectReason")}
        autosize
        minRows={2}
        {...field("reason")}
        data-testid="reject-reason"
      />
    </FormDialog>
  );
}
