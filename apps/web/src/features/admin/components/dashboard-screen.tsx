import "@mantine/charts/styles.css";
import { BarChart, LineChart } from "@mantine/charts";
import { Card, SegmentedControl, SimpleGrid, Stack, Table, Text } from "@mantine/core";
import type { Currency } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { chartValue, formatInt, money } from "../../../components/console-kit/money.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { dashboardQuery } from "../api/admin.ts";
import { StatCard } from "./stat-card.tsx";

const RANGES = ["7", "30", "90"] as const;

/** Back office → Dashboard: totals and the queues, sign-ups, requests and money per day, top models. */
export function DashboardScreen() {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const [days, setDays] = useState<(typeof RANGES)[number]>("30");
  const [currency, setCurrency] = useState<Currency>(locale === "zh-CN" ? "CNY" : "USD");
  const q = useQuery(dashboardQuery(Number(days)));
  const header = (
    <PageHeader
      title={t("dashboard.title")}
      description={t("dashboard.description")}
      actions={
        <SegmentedControl
          value={days}
          onChange={(v) => setDays(v as typeof days)}
          data={RANGES.map((d) => ({ value: d, label: t("dashboard.range", { days: d }) }))}
        />
      }
    />
  );
  if (q.isPending) {
    return (
      <>
        {header}
        <LoadingBlock rows={8} />
      </>
    );
  }
  if (q.isError) {
    return (
      <>
        {header}
        <LoadError error={q.error} onRetry={() => q.refetch()} />
      </>
    );
  }
  const d = q.data;
  const label = (date: string) => date.slice(5);
  return (
    <>
      {header}
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
          {(Object.keys(d.totals) as (keyof typeof d.totals)[]).map((k) => (
            <StatCard
              key={k}
              label={t(`dashboard.totals.${k}`)}
              value={formatInt(d.totals[k], locale)}
              testId={`total-${k}`}
            />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Card withBorder padding="lg">
            <Text fw={600} mb="md">
              {t("dashboard.signups")}
            </Text>
            <BarChart
              h={220}
              data={d.days.map((x) => ({ day: label(x.date), organizations: x.organizations, users: x.users }))}
              dataKey="day"
              series={[
                { name: "users", label: t("dashboard.usersSeries"), color: "indigo.5" },
                { name: "organizations", label: t("dashboard.organizationsSeries"), color: "teal.5" },
              ]}
              tickLine="y"
              gridAxis="y"
              withLegend
            />
          </Card>
          <Card withBorder padding="lg">
            <Text fw={600} mb="md">
              {t("dashboard.requests")}
            </Text>
            <LineChart
              h={220}
              data={d.days.map((x) => ({ day: label(x.date), requests: x.requests }))}
              dataKey="day"
              series={[{ name: "requests", label: t("dashboard.requestsSeries"), color: "violet.5" }]}
              curveType="monotone"
              tickLine="y"
              gridAxis="y"
              valueFormatter={(v) => formatInt(v, locale)}
            />
          </Card>
        </SimpleGrid>
        <Card withBorder padding="lg">
          <Stack gap="md">
            <SegmentedControl
              w="fit-content"
              value={currency}
              onChange={(v) => setCurrency(v as Currency)}
              data={["CNY", "USD"]}
            />
            <Text fw={600}>{t("dashboard.money", { currency })}</Text>
            <BarChart
              h={240}
              data={d.days.map((x) => ({
                day: label(x.date),
                recharge: chartValue(x.recharge[currency]),
                consumption: chartValue(x.consumption[currency]),
              }))}
              dataKey="day"
              series={[
                { name: "recharge", label: t("dashboard.rechargeSeries"), color: "teal.6" },
                { name: "consumption", label: t("dashboard.consumptionSeries"), color: "indigo.5" },
              ]}
              tickLine="y"
              gridAxis="y"
              withLegend
              valueFormatter={(v) => money(BigInt(Math.round(v * 1e9)), currency)}
            />
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Text fw={600} mb="sm">
            {t("dashboard.topModels")}
          </Text>
          {d.topModels.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t("dashboard.noModels")}
            </Text>
          ) : (
            <Table data-testid="top-models">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("dashboard.model")}</Table.Th>
                  <Table.Th ta="right">{t("dashboard.requestsSeries")}</Table.Th>
                  <Table.Th ta="right">{t("dashboard.tokens")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.topModels.map((m) => (
                  <Table.Tr key={m.model}>
                    <Table.Td>{m.model}</Table.Td>
                    <Table.Td ta="right">{formatInt(m.requests, locale)}</Table.Td>
                    <Table.Td ta="right">{formatInt(m.tokens, locale)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
      </Stack>
    </>
  );
}
