import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { Currency, Refund } from "@moonport/contracts";
import { IconReceiptRefund } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable, usePagedTable } from "../../../components/console-kit/data-table.tsx";
import { ConfirmDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState, LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { REFUND_STATUS_COLOR } from "../../../lib/refund-status.ts";
import { refundOptionsQuery, refundsQuery, useCancelRefund } from "../api/refunds-api.ts";
import { RefundRequest } from "./refund-request.tsx";

/**
 * Billing → Refunds: unused cash that can be refunded, the request form and the refund records (with the
 * operator's rejection reason, the provider's failure as "Refund failed: {reason}", cancelling a request that
 * still waits).
 */
export function RefundsScreen({ orgId, currency }: { orgId: string; currency: Currency }) {
  const { t } = useTranslation("refunds");
  const options = useQuery(refundOptionsQuery(orgId));
  return (
    <Stack gap="lg">
      <PageHeader title={t("title")} description={t("description")} />
      {options.isPending ? (
        <LoadingBlock rows={3} />
      ) : options.isError ? (
        <LoadError error={options.error} onRetry={() => options.refetch()} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} data-testid="refund-summary">
            {(
              [
                ["cash", options.data.cash],
                ["requested", options.data.requested],
                ["available", options.data.available],
              ] as const
            ).map(([key, value]) => (
              <Card key={key} withBorder padding="md">
                <Text size="xs" c="dimmed">
                  {t(`summary.${key}`)}
                </Text>
                <Text fw={600} size="lg" data-testid={`refund-${key}`}>
                  {money(value, currency)}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <RefundRequest orgId={orgId} options={options.data} />
        </>
      )}
      <RefundRecords orgId={orgId} currency={currency} />
    </Stack>
  );
}

function RefundRecords({ orgId, currency }: { orgId: string; currency: Currency }) {
  const { t } = useTranslation("refunds");
  const locale = useLocale();
  const [cancelling, setCancelling] = useState<Refund | null>(null);
  const cancel = useCancelRefund(orgId);
  const records = usePagedTable((page, pageSize) => refundsQuery(orgId, { page, pageSize }));
  const columns: DataColumn<Refund>[] = [
    { id: "createdAt", header: t("records.createdAt"), cell: (r) => <DateTimeCell iso={r.createdAt} /> },
    {
      id: "payment",
      header: t("records.payment"),
      cell: (r) => (
        <Text size="sm">
          {t(`payType.${r.paymentType}`)} · {formatDateTime(r.paymentCreatedAt, locale)}
        </Text>
      ),
    },
    { id: "amount", header: t("records.amount"), align: "right", cell: (r) => money(r.amount, currency) },
    {
      id: "status",
      header: t("records.status"),
      cell: (r) => (
        <Badge color={REFUND_STATUS_COLOR[r.status]} variant="light" data-testid="refund-status">
          {t(`status.${r.status}`)}
        </Badge>
      ),
    },
    {
      id: "detail",
      header: t("records.detail"),
      cell: (r) => (
        <Text size="sm" c={r.status === "failed" || r.status === "rejected" ? "red" : "dimmed"} maw={320}>
          {r.status === "failed"
            ? t("failed", { reason: r.failureReason ?? t("tryLater") })
            : r.status === "rejected"
              ? t("records.rejected", { reason: r.rejectReason ?? "" })
              : r.transferReference
                ? t("records.transferReference", { reference: r.transferReference })
                : (r.reason ?? "—")}
        </Text>
      ),
    },
    {
      id: "actions",
      header: "",
      align: "right",
      cell: (r) =>
        r.status === "requested" ? (
          <Anchor component="button" size="sm" c="red" onClick={() => setCancelling(r)} data-testid="refund-cancel">
            {t("records.cancel")}
          </Anchor>
        ) : null,
    },
  ];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={4}>{t("records.title")}</Title>
      </Group>
      <div data-testid="refund-records">
        <DataTable
          columns={columns}
          {...records.table}
          getRowId={(r) => r.id}
          empty={<EmptyState icon={IconReceiptRefund} title={t("records.empty")} text={t("records.emptyText")} />}
          minWidth={760}
          rowTestId="refund-row"
        />
      </div>
      <ConfirmDialog
        opened={cancelling !== null}
        onClose={() => {
          setCancelling(null);
          cancel.reset();
        }}
        title={t("records.cancelTitle")}
        confirmLabel={t("records.cancelConfirm")}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id, { onSuccess: () => setCancelling(null) })}
        pending={cancel.isPending}
        error={
          cancel.error
            ? cancel.error instanceof ApiError && cancel.error.code.startsWith("refund_")
              ? cancel.error.message
              : t("cancelFailed", { reason: cancel.error instanceof ApiError ? cancel.error.message : t("tryLater") })
            : undefined
        }
      >
        <Text size="sm">
          {cancelling ? t("records.cancelText", { amount: money(cancelling.amount, currency) }) : null}
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}
