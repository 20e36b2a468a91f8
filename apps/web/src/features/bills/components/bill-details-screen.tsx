import { Badge, Button, Card, Group, SimpleGrid, Stack, Tabs, Text, Tooltip } from "@mantine/core";
import type { BillTotals, Currency, DailyBillRow, ProductBillRow, RequestBillRow } from "@moonport/contracts";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeCell, DateTimeCell, TextCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { formatInt, money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { daysAgoIn, timeZoneName } from "../../../components/console-kit/time-zone.ts";
import { useLocale } from "../../../i18n/index.ts";
import { dailyBillsQuery } from "../api/get-daily-bills.ts";
import { productBillsQuery } from "../api/get-product-bills.ts";
import { requestDetailsQuery } from "../api/get-request-details.ts";
import { DateRange, rangeProblems } from "./date-range.tsx";

const TABS = ["daily", "product", "requests"] as const;
type Tab = (typeof TABS)[number];

/** Billing details: Daily Bill, Product Bill and Request Details over a range of at most 31 days. */
export function BillDetailsScreen({ orgId, timeZone }: { orgId: string; timeZone: string }) {
  const { t } = useTranslation("bills");
  const [tab, setTab] = useState<Tab>("daily");
  // The last 7 days of the edition's calendar (bills are per day there), not of the browser's.
  const [range, setRange] = useState(() => ({ from: daysAgoIn(timeZone, 6), to: daysAgoIn(timeZone, 0) }));
  const [applied, setApplied] = useState(range);
  const valid = Object.keys(rangeProblems(range)).length === 0;
  const change = (r: { from: string; to: string }) => {
    setRange(r);
    if (Object.keys(rangeProblems(r)).length === 0) setApplied(r);
  };
  return (
    <Stack gap="lg">
      <DateRange value={range} onChange={change} />
      <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted={false}>
        <Tabs.List>
          {TABS.map((k) => (
            <Tabs.Tab key={k} value={k} data-testid={`bills-tab-${k}`}>
              {t(`tabs.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="daily" pt="md">
          <DailyTab orgId={orgId} range={applied} stale={!valid} />
        </Tabs.Panel>
        <Tabs.Panel value="product" pt="md">
          <ProductTab orgId={orgId} range={applied} />
        </Tabs.Panel>
        <Tabs.Panel value="requests" pt="md">
          <RequestsTab orgId={orgId} range={applied} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function Totals({ totals, currency, timeZone }: { totals: BillTotals; currency: Currency; timeZone: string }) {
  const { t } = useTranslation("bills");
  const locale = useLocale();
  const items = [
    ["consumption", money(totals.consumption, currency)],
    ["cashDeduction", money(totals.cashDeduction, currency)],
    ["voucherDeduction", money(totals.voucherDeduction, currency)],
    ["requests", formatInt(totals.requests, locale)],
  ] as const;
  return (
    <Stack gap={6}>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {items.map(([k, v]) => (
          <Card key={k} withBorder padding="sm">
            <Text size="xs" c="dimmed">
              {t(`columns.${k}`)}
            </Text>
            <Text fw={600} data-testid={`total-${k}`}>
              {v}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t("zone", { zone: timeZoneName(timeZone, locale) })}
      </Text>
    </Stack>
  );
}

function useSumColumns<
  T extends {
    consumption: string;
    cashDeduction: string;
    voucherDeduction: string;
    inputTokens: number;
    outputTokens: number;
    cachedTokens: number;
  },
>(currency: Currency): DataColumn<T>[] {
  const { t } = useTranslation("bills");
  const locale = useLocale();
  return [
    { id: "input", header: t("columns.inputTokens"), align: "right", cell: (r) => formatInt(r.inputTokens, locale) },
    { id: "output", header: t("columns.outputTokens"), align: "right", cell: (r) => formatInt(r.outputTokens, locale) },
    { id: "cached", header: t("columns.cachedTokens"), align: "right", cell: (r) => formatInt(r.cachedTokens, locale) },
    {
      id: "consumption",
      header: t("columns.consumption"),
      align: "right",
      cell: (r) => money(r.consumption, currency),
    },
    { id: "cash", header: t("columns.cashDeduction"), align: "right", cell: (r) => money(r.cashDeduction, currency) },
    {
      id: "voucher",
      header: t("columns.voucherDeduction"),
      align: "right",
      cell: (r) => money(r.voucherDeduction, currency),
    },
  ];
}

function DailyTab({ orgId, range, stale }: { orgId: string; range: { from: string; to: string }; stale: boolean }) {
  const { t } = useTranslation("bills");
  const q = useQuery(dailyBillsQuery(orgId, range.from, range.to));
  const currency = q.data?.currency ?? "CNY";
  const sums = useSumColumns<DailyBillRow>(currency);
  const columns: DataColumn<DailyBillRow>[] = [
    {
      id: "date",
      header: t("columns.date"),
      cell: (r) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{r.date}</Text>
          {r.final ? null : (
            <Tooltip label={t("provisionalHint")} multiline w={260}>
              <Badge size="xs" variant="light" color="yellow" data-testid="provisional">
                {t("provisional")}
              </Badge>
            </Tooltip>
          )}
        </Group>
      ),
    },
    { id: "product", header: t("columns.productName"), cell: (r) => <TextCell>{r.productName}</TextCell> },
    {
      id: "type",
      header: t("columns.productType"),
      cell: (r) => <TextCell>{t(`types.${r.productType}`, { defaultValue: r.productType })}</TextCell>,
    },
    ...sums,
  ];
  return (
    <Stack gap="md" opacity={stale ? 0.6 : 1}>
      {q.data ? <Totals totals={q.data.totals} currency={currency} timeZone={q.data.timeZone} /> : null}
      <DataTable
        columns={columns}
        rows={q.data?.items}
        query={q}
        getRowId={(r) => `${r.date}|${r.productType}|${r.productName}`}
        empty={<EmptyState title={t("empty.title")} text={t("empty.text")} />}
        minWidth={980}
        rowTestId="daily-bill-row"
      />
    </Stack>
  );
}

function ProductTab({ orgId, range }: { orgId: string; range: { from: string; to: string } }) {
  const { t } = useTranslation("bills");
  const q = useQuery(productBillsQuery(orgId, range.from, range.to));
  const currency = q.data?.currency ?? "CNY";
  const sums = useSumColumns<ProductBillRow>(currency);
  const locale = useLocale();
  const columns: DataColumn<ProductBillRow>[] = [
    { id: "product", header: t("columns.productName"), cell: (r) => <TextCell>{r.productName}</TextCell> },
    {
      id: "type",
      header: t("columns.productType"),
      cell: (r) => <TextCell>{t(`types.${r.productType}`, { defaultValue: r.productType })}</TextCell>,
    },
    { id: "model", header: t("columns.model"), cell: (r) => <TextCell>{r.model}</TextCell> },
    { id: "requests", header: t("columns.requests"), align: "right", cell: (r) => formatInt(r.requests, locale) },
    ...sums,
  ];
  return (
    <Stack gap="md">
      {q.data ? <Totals totals={q.data.totals} currency={currency} timeZone={q.data.timeZone} /> : null}
      <DataTable
        columns={columns}
        rows={q.data?.items}
        query={q}
        getRowId={(r) => `${r.productType}|${r.productName}|${r.model}`}
        empty={<EmptyState title={t("empty.title")} text={t("empty.text")} />}
        minWidth={1080}
        rowTestId="product-bill-row"
      />
    </Stack>
  );
}

function RequestsTab({ orgId, range }: { orgId: string; range: { from: string; to: string } }) {
  const { t } = useTranslation("bills");
  const q = useInfiniteQuery(requestDetailsQuery(orgId, range.from, range.to));
  const currency = q.data?.pages[0]?.currency ?? "CNY";
  const sums = useSumColumns<RequestBillRow>(currency);
  const rows = q.data?.pages.flatMap((p) => p.items);
  const columns: DataColumn<RequestBillRow>[] = [
    { id: "requestId", header: t("columns.requestId"), cell: (r) => <CodeCell>{r.requestId}</CodeCell> },
    { id: "time", header: t("columns.time"), cell: (r) => <DateTimeCell iso={r.time} /> },
    { id: "model", header: t("columns.model"), cell: (r) => <TextCell>{r.model}</TextCell> },
    {
      id: "type",
      header: t("columns.productType"),
      cell: (r) => <TextCell>{t(`types.${r.productType}`, { defaultValue: r.productType })}</TextCell>,
    },
    { id: "project", header: t("columns.project"), cell: (r) => <TextCell>{r.projectName}</TextCell> },
    ...sums,
  ];
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t("requestsHint")}
      </Text>
      <DataTable
        columns={columns}
        rows={rows}
        query={q}
        getRowId={(r) => r.id}
        empty={<EmptyState title={t("empty.title")} text={t("empty.text")} />}
        minWidth={1240}
        rowTestId="request-bill-row"
      />
      {q.hasNextPage ? (
        <Group justify="center">
          <Button variant="default" onClick={() => q.fetchNextPage()} loading={q.isFetchingNextPage}>
            {t("loadMore")}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
