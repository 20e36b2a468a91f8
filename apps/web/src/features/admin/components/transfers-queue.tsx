import { Button, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { Currency } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DataColumn, DataTable, pagerOf } from "../../../components/console-kit/data-table.tsx";
import { ConfirmDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { transfersQuery, useConfirmTransfer } from "../api/admin.ts";
import { queueColumns } from "./queue-columns.tsx";

/** Queues → Transfers: bank transfers announced by organizations, confirmed once the money arrived. */
export function TransfersQueue() {
  const { t } = useTranslation("admin");
  const [page, setPage] = useState(1);
  const list = useQuery(transfersQuery(page));
  const confirmTransfer = useConfirmTransfer();
  const [target, setTarget] = useState<{ id: string; amount: string; reference: string } | null>(null);
  type Row = NonNullable<typeof list.data>["items"][number];
  const columns: DataColumn<Row>[] = [
    queueColumns.org(t("queues.organization")),
    { id: "amount", header: t("queues.amount"), align: "right", cell: (r) => money(r.amount, r.currency as Currency) },
    { id: "reference", header: t("queues.reference"), cell: (r) => <Text fw={600}>{r.reference ?? "—"}</Text> },
    queueColumns.created(t("queues.created")),
    queueColumns.actions("actions", 160, (r) => (
      <Button
        size="xs"
        onClick={() =>
          setTarget({ id: r.id, amount: money(r.amount, r.currency as Currency), reference: r.reference ?? r.id })
        }
        data-testid="transfer-confirm"
      >
        {t("queues.confirm")}
      </Button>
    )),
  ];
  return (
    <>
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        rowTestId="transfer-row"
        minWidth={720}
        empty={<EmptyState title={t("queues.noTransfers")} />}
        pagination={pagerOf(list.data, page, setPage)}
      />
      <ConfirmDialog
        opened={target !== null}
        onClose={() => setTarget(null)}
        title={t("queues.confirm")}
        confirmLabel={t("queues.confirm")}
        danger={false}
        pending={confirmTransfer.isPending}
        error={confirmTransfer.error ? t("queues.failed", { reason: confirmTransfer.error.message }) : undefined}
        onConfirm={() =>
          target &&
          confirmTransfer.mutate(target.id, {
            onSuccess: () => {
              setTarget(null);
              notifications.show({ color: "teal", message: t("queues.confirmed") });
            },
          })
        }
      >
        <Text size="sm">{t("queues.confirmText", { amount: target?.amount, reference: target?.reference })}</Text>
      </ConfirmDialog>
    </>
  );
}
