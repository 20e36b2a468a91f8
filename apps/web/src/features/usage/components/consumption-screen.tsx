import "@mantine/charts/styles.css";
import { DonutChart } from "@mantine/charts";
import { Card, Group, SegmentedControl, Select, SimpleGrid, Stack, Tabs, Text, Title } from "@mantine/core";
import type { Consumption, ConsumptionItem, Currency } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DataTable, LOADED } from "../../../components/console-kit/data-table.tsx";
import { chartValue, money } from "../../../components/console-kit/money.ts";
import { SpendChart } from "../../../components/console-kit/spend-chart.tsx";
import { EmptyState, LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { daysAgoIn, timeZoneName } from "../../../components/console-kit/time-zone.ts";
import { useLocale } from "../../../i18n/index.ts";
import { consumptionQuery } from "../api/get-consumption.ts";

const DIMENSIONS = ["byApiKey", "byProject", "byProductType", "byModel"] as const;
const COLORS = ["indigo.6", "teal.6", "yellow.6", "grape.6", "cyan.6", "gray.5"];

/** The last `n` months of the edition's calendar ("YYYY-MM"), newest first. */
function recentMonths(n: number, timeZone: string): string[] {
  const [y, m] = daysAgoIn(timeZone, 0).split("-").map(Number) as [number, number];
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(y, m - 1 - i, 1)).toISOString().slice(0, 7));
}

/** Account consumption by key, project, product type and model, for a month or a year. */
export function ConsumptionScreen({ orgId, timeZone }: { orgId: string; timeZone: string }) {
  const { t } = useTranslation("org");
  const [granularity, setGranularity] = useState<"month" | "year">("month");
  const months = useMemo(() => recentMonths(24, timeZone), [timeZone]);
  const years = useMemo(() => [...new Set(months.map((m) => m.slice(0, 4)))], [months]);
  const [month, setMonth] = useState(months[0]!);
  const [year, setYear] = useState(years[0]!);
  const period = granularity === "month" ? month : year;
  const data = useQuery(consumptionQuery(orgId, granularity, period));
  return (
    <Stack gap="lg">
      <Group>
        <SegmentedControl
          value={granularity}
          onChange={(v) => setGranularity(v as "month" | "year")}
          data={[
            { value: "month", label: t("consumption.byMonth") },
            { value: "year", label: t("consumption.byYear") },
          ]}
          data-testid="granularity-switch"
        />
        {granularity === "month" ? (
          <Select
            data={months}
            value={month}
            onChange={(v) => v && setMonth(v)}
            w={140}
            aria-label={t("consumption.period")}
            allowDeselect={false}
          />
        ) : (
          <Select
            data={years}
            value={year}
            onChange={(v) => v && setYear(v)}
            w={120}
            aria-label={t("consumption.period")}
            allowDeselect={false}
          />
        )}
      </Group>
      {data.isPending ? (
        <LoadingBlock rows={6} />
      ) : data.isError ? (
        <LoadError error={data.error} onRetry={() => data.refetch()} />
      ) : (
        <ConsumptionView data={data.data} />
      )}
    </Stack>
  );
}

function ConsumptionView({ data }: { data: Consumption }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const empty = BigInt(data.total) === 0n;
  return (
    <Stack gap="lg">
      <Card withBorder padding="lg">
        <Group justify="space-between" mb="md">
          <div>
            <Text size="sm" c="dimmed">
              {t("consumption.total", { period: data.period })}
            </Text>
            <Title order={2} data-testid="consumption-total">
              {money(data.total, data.currency)}
            </Title>
          </div>
          <Text size="xs" c="dimmed">
            {t("consumption.zone", { zone: timeZoneName(data.timeZone, locale) })}
          </Text>
        </Group>
        {empty ? (
          <EmptyState title={t("consumption.emptyTitle")} text={t("consumption.emptyText")} />
        ) : (
          <SpendChart series={data.series} currency={data.currency} label={t("overview.spend")} />
        )}
      </Card>
      {empty ? null : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {DIMENSIONS.slice(0, 4).map((d) => (
            <TopCard
              key={d}
              title={t(`consumption.top.${d}`)}
              items={data[d].map((row) => ({ ...row, name: label(row, d, t) }))}
              currency={data.currency}
            />
          ))}
        </SimpleGrid>
      )}
      {empty ? null : (
        <Card withBorder padding="lg">
          <Tabs defaultValue="byApiKey">
            <Tabs.List>
              {DIMENSIONS.map((d) => (
                <Tabs.Tab key={d} value={d}>
                  {t(`consumption.dimension.${d}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {DIMENSIONS.map((d) => (
              <Tabs.Panel key={d} value={d} pt="md">
                <div data-testid={`consumption-${d}`}>
                  <DataTable
                    columns={[
                      {
                        id: "id",
                        header: t("consumption.id"),
                        cell: (row: ConsumptionItem) => (
                          <Text size="xs" ff="monospace">
                            {row.id}
                          </Text>
                        ),
                      },
                      { id: "name", header: t("consumption.name"), cell: (row) => label(row, d, t) },
                      {
                        id: "amount",
                        header: t("consumption.amount"),
                        align: "right",
                        cell: (row) => money(row.amount, data.currency),
                      },
                    ]}
                    rows={data[d]}
                    query={LOADED}
                    getRowId={(row) => row.id}
                    empty={<EmptyState title={t("consumption.emptyTitle")} />}
                    striped
                  />
                </div>
              </Tabs.Panel>
            ))}
          </Tabs>
        </Card>
      )}
    </Stack>
  );
}

function label(
  row: ConsumptionItem,
  d: (typeof DIMENSIONS)[number],
  t: (k: string, o?: Record<string, unknown>) => string,
) {
  if (d !== "byProductType") return row.name;
  return t(`consumption.productType.${row.id}`, { defaultValue: row.id });
}

function TopCard({ title, items, currency }: { title: string; items: ConsumptionItem[]; currency: Currency }) {
  const top = items.slice(0, 5);
  const rest = items.slice(5).reduce((s, i) => s + BigInt(i.amount), 0n);
  const { t } = useTranslation("org");
  const chart = [
    ...top.map((i, n) => ({ name: i.name, value: chartValue(i.amount), color: COLORS[n]! })),
    ...(rest > 0n ? [{ name: t("consumption.others"), value: chartValue(rest.toString()), color: COLORS[5]! }] : []),
  ];
  return (
    <Card withBorder padding="lg">
      <Text fw={600} mb="sm">
        {title}
      </Text>
      <Group align="center" wrap="nowrap" gap="lg">
        <DonutChart data={chart} size={120} thickness={18} withTooltip={false} />
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          {top.map((i, n) => (
            <Group key={i.id} justify="space-between" wrap="nowrap" gap="xs">
              <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                <div
                  style={{
                    width: 8,
                    height: 8,
                    borderRadius: 8,
                    flex: "none",
                    background: `var(--mantine-color-${COLORS[n]!.replace(".", "-")})`,
                  }}
                />
                <Text size="sm" truncate>
                  {i.name}
                </Text>
              </Group>
              <Text size="sm" fw={500}>
                {money(i.amount, currency)}
              </Text>
            </Group>
          ))}
        </Stack>
      </Group>
    </Card>
  );
}
