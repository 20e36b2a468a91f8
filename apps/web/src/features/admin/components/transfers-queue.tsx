import { Button, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { Currency } from "@moonport/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DataColumn, DataTable, usePagedTable } from "../../../components/console-kit/data-table.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { PAGE_SIZE, transfersQuery, useConfirmTransfer } from "../api/admin.ts";
import { queueColumns } from "./queue-columns.tsx";
import { QueueConfirmDialog } from "./queue-confirm-dialog.tsx";

/** Queues → Transfers: bank transfers announced by organizations, confirmed once the money arrived. */
export function TransfersQueue() {
  const { t } = useTranslation("admin");
  const list = usePagedTable((page) => transfersQuery(page), PAGE_SIZE);
  const confirmTransfer = useConfirmTransfer();
  const [target, setTarget] = useState<{ id: string; amount: string; reference: string } | null>(null);
  type Row = NonNullable<typeof list.table.rows>[number];
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
        {...list.table}
        getRowId={(r) => r.id}
        rowTestId="transfer-row"
        minWidth={720}
        empty={<EmptyState title={t("queues.noTransfers")} />}
      />
      <QueueConfirmDialog
        target={target}
        onClose={() => setTarget(null)}
        label={t("queues.confirm")}
        run={async (row) => {
          await confirmTransfer.mutateAsync(row.id);
          notifications.show({ color: "teal", message: t("queues.confirmed") });
        }}
      >
        <Text size="sm">{t("queues.confirmText", { amount: target?.amount, reference: target?.reference })}</Text>
      </QueueConfirmDialog>
    </>
  );
}
