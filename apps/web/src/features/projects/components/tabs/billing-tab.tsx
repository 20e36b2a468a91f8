import "@mantine/charts/styles.css";
import { Card, Select, Stack, Text, Title } from "@mantine/core";
import type { Currency, ProjectBilling } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DataTable, LOADED } from "../../../../components/console-kit/data-table.tsx";
import { formatInt, money } from "../../../../components/console-kit/money.ts";
import { SpendChart } from "../../../../components/console-kit/spend-chart.tsx";
import { EmptyState, LoadError, LoadingBlock } from "../../../../components/console-kit/states.tsx";
import { useLocale } from "../../../../i18n/index.ts";
import { projectBillingQuery } from "../../api/get-project-billing.ts";

type ModelRow = ProjectBilling["byModel"][number];

/** The last twelve months (UTC), newest first, as YYYY-MM. */
function recentMonths(now = new Date()): string[] {
  return Array.from({ length: 12 }, (_, i) => {
    const x = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    return `${x.getUTCFullYear()}-${String(x.getUTCMonth() + 1).padStart(2, "0")}`;
  });
}

/** One month of the project's spend: total, by day, and by model. */
export function BillingTab({ orgId, projectId, currency }: { orgId: string; projectId: string; currency: Currency }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const [months] = useState(recentMonths);
  const [month, setMonth] = useState(months[0]!);
  const billing = useQuery(projectBillingQuery(orgId, projectId, month));
  return (
    <Stack gap="lg">
      <Select
        data={months}
        value={month}
        onChange={(v) => v && setMonth(v)}
        w={140}
        allowDeselect={false}
        aria-label={t("consumption.period")}
      />
      {billing.isPending ? (
        <LoadingBlock />
      ) : billing.isError ? (
        <LoadError error={billing.error} onRetry={() => billing.refetch()} />
      ) : BigInt(billing.data.total) === 0n ? (
        <EmptyState title={t("consumption.emptyTitle")} text={t("consumption.emptyText")} />
      ) : (
        <>
          <Card withBorder padding="lg">
            <Text size="sm" c="dimmed">
              {t("consumption.total", { period: billing.data.month })}
            </Text>
            <Title order={2} mb="md">
              {money(billing.data.total, currency)}
            </Title>
            <SpendChart series={billing.data.daily} currency={currency} label={t("overview.spend")} />
          </Card>
          <Card withBorder padding={0}>
            <DataTable
              columns={[
                { id: "model", header: t("consumption.dimension.byModel"), cell: (m: ModelRow) => m.model },
                {
                  id: "requests",
                  header: t("projects.requests"),
                  align: "right",
                  cell: (m) => formatInt(m.requests, locale),
                },
                {
                  id: "tokens",
                  header: t("projects.tokens"),
                  align: "right",
                  cell: (m) => formatInt(m.tokens, locale),
                },
                {
                  id: "amount",
                  header: t("consumption.amount"),
                  align: "right",
                  cell: (m) => money(m.amount, currency),
                },
              ]}
              rows={billing.data.byModel}
              query={LOADED}
              getRowId={(m) => m.model}
              empty={null}
              striped
            />
          </Card>
        </>
      )}
    </Stack>
  );
}
