import { Anchor, Group, Select, Stack, Title } from "@mantine/core";
import type { Payment } from "@moonport/contracts";
import { IconReceipt } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { type PaymentFilter, paymentsQuery } from "../api/billing-api.ts";
import { paymentColumns } from "./payment-panel.tsx";

/** Recharge details: createdAt, amount, payment type, status; filters and pagination. */
export function RechargeDetails({ orgId, onOpen }: { orgId: string; onOpen: (id: string) => void }) {
  const { t } = useTranslation("billing");
  const [filter, setFilter] = useState<PaymentFilter>({ page: 1, pageSize: 10 });
  const q = useQuery(paymentsQuery(orgId, filter));
  const columns: DataColumn<Payment>[] = paymentColumns(t, {
    id: "view",
    header: "",
    align: "right",
    cell: (p) =>
      p.status === "waiting" ? (
        <Anchor component="button" size="sm" onClick={() => onOpen(p.id)}>
          {t("details.view")}
        </Anchor>
      ) : null,
  });
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={4}>{t("details.title")}</Title>
        <Group gap="xs">
          <Select
            w={150}
            clearable
            placeholder={t("details.anyStatus")}
            data={(["success", "failed", "waiting", "closed"] as const).map((s) => ({
              value: s,
              label: t(`status.${s}`),
            }))}
            value={filter.status ?? null}
            onChange={(v) => setFilter((f) => ({ ...f, page: 1, status: v ?? undefined }))}
          />
          <Select
            w={170}
            clearable
            placeholder={t("details.anyType")}
            data={(["wxpay", "alipay", "unionpay", "b2btransfer", "credit_card"] as const).map((s) => ({
              value: s,
              label: t(`payType.${s}`),
            }))}
            value={filter.paymentType ?? null}
            onChange={(v) => setFilter((f) => ({ ...f, page: 1, paymentType: v ?? undefined }))}
          />
        </Group>
      </Group>
      <div data-testid="recharge-details">
        <DataTable
          columns={columns}
          rows={q.data?.items}
          query={q}
          getRowId={(p) => p.id}
          empty={<EmptyState icon={IconReceipt} title={t("details.empty")} text={t("details.emptyText")} />}
          pagination={
            q.data
              ? {
                  page: filter.page,
                  pageSize: filter.pageSize,
                  total: q.data.total,
                  onChange: (page) => setFilter((f) => ({ ...f, page })),
                }
              : undefined
          }
          minWidth={520}
          rowTestId="payment-row"
        />
      </div>
    </Stack>
  );
}
