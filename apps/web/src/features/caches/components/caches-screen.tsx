import { Badge, Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { ConsoleCache, ConsoleCacheStatus, Currency } from "@moonport/contracts";
import { IconDatabase } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LinesCell, TextCell } from "../../../components/console-kit/cells.tsx";
import { useCurrentOrg } from "../../../components/console-kit/current-org.ts";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { withFetchFailure } from "../../../components/console-kit/failure.ts";
import { formatInt, money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { cachesQuery } from "../api/get-caches.ts";
import { SavingsCalculator } from "./savings-calculator.tsx";

const PAGE_SIZE = 10;
const STATUS_COLOR: Record<ConsoleCacheStatus, string> = {
  pending: "blue",
  ready: "green",
  error: "red",
  inactive: "gray",
  deleted: "gray",
};

/** Resources → Context Caching: the savings summary, the cache table and the savings calculator. */
export function CachesScreen() {
  const { t } = useTranslation("caches");
  const org = useCurrentOrg();
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      {org ? (
        <CachesPanel key={org.id} orgId={org.id} currency={org.currency} />
      ) : (
        <EmptyState title={t("selectOrgFirst")} />
      )}
    </>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} mt={4} data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

function CachesPanel({ orgId, currency }: { orgId: string; currency: Currency }) {
  const { t } = useTranslation("caches");
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const caches = useQuery(cachesQuery(orgId, page, PAGE_SIZE));
  const cur = caches.data?.currency ?? currency;
  const amount = (nanos: string) => money(nanos, cur);

  const columns: DataColumn<ConsoleCache>[] = [
    {
      id: "id",
      header: t("columns.id"),
      width: 180,
      cell: (c) => (
        <>
          <Text fw={500} size="xs" ff="monospace" style={{ wordBreak: "break-all" }}>
            {c.id}
          </Text>
          {c.name ? (
            <Text size="xs" c="dimmed">
              {c.name}
            </Text>
          ) : null}
        </>
      ),
    },
    {
      id: "status",
      header: t("columns.status"),
      width: 110,
      cell: (c) => (
        <Badge
          color={STATUS_COLOR[c.status]}
          variant="light"
          data-testid="cache-status"
          style={{ overflow: "visible" }}
        >
          {t(`status.${c.status}`)}
        </Badge>
      ),
    },
    { id: "model", header: t("columns.model"), width: 120, cell: (c) => <TextCell>{c.model}</TextCell> },
    {
      id: "tokens",
      header: t("columns.tokens"),
      align: "right",
      cell: (c) => <TextCell>{formatInt(c.tokens, locale)}</TextCell>,
    },
    {
      id: "time",
      header: t("columns.time"),
      cell: (c) => (
        <LinesCell
          align="left"
          lines={[
            { label: t("columns.createdAt"), value: formatDateTime(c.createdAt, locale) },
            { label: t("columns.expiredAt"), value: formatDateTime(c.expiredAt, locale) },
          ]}
        />
      ),
    },
    {
      id: "usage",
      header: t("columns.usage"),
      align: "right",
      cell: (c) => (
        <LinesCell
          lines={[
            { label: t("columns.billingMinutes"), value: formatInt(c.billingMinutes, locale) },
            { label: t("columns.calls"), value: formatInt(c.calls, locale) },
            { label: t("columns.chatTokens"), value: formatInt(c.chatTokens, locale) },
          ]}
        />
      ),
    },
    {
      id: "spend",
      header: t("columns.spend"),
      align: "right",
      cell: (c) => (
        <Stack gap={0} align="flex-end">
          <Text size="sm" fw={500}>
            {amount(c.spend.total)}
          </Text>
          <Text size="xs" c="dimmed" maw={220} ta="right">
            {t("spendSplit", {
              chat: amount(c.spend.chat),
              call: amount(c.spend.call),
              creation: amount(c.spend.creation),
              storage: amount(c.spend.storage),
            })}
          </Text>
        </Stack>
      ),
    },
    {
      id: "savings",
      header: t("columns.savings"),
      align: "right",
      cell: (c) => (
        <Text
          size="sm"
          fw={600}
          c={BigInt(c.savings) < 0n ? "red.7" : "teal.8"}
          style={{ whiteSpace: "nowrap" }}
          data-testid="cache-savings"
        >
          {amount(c.savings)}
        </Text>
      ),
    },
  ];

  // §8: "Cache list fetch failed: {reason}" in the table's error state.
  const query = withFetchFailure(caches, (reason) => t("failure.fetch", { reason: reason ?? t("failure.tryLater") }));
  const summary = caches.data?.summary;

  return (
    <Stack gap="lg">
      <section aria-label={t("summary.title")}>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Figure
            label={t("summary.caches")}
            value={summary ? formatInt(summary.caches, locale) : "–"}
            testId="summary-caches"
          />
          <Figure
            label={t("summary.calls")}
            value={summary ? formatInt(summary.calls, locale) : "–"}
            testId="summary-calls"
          />
          <Figure label={t("summary.spend")} value={summary ? amount(summary.spend) : "–"} testId="summary-spend" />
          <Figure
            label={t("summary.savings")}
            value={summary ? amount(summary.savings) : "–"}
            testId="summary-savings"
          />
        </SimpleGrid>
      </section>
      <DataTable
        columns={columns}
        rows={caches.data?.items}
        query={query}
        getRowId={(c) => c.id}
        rowTestId="cache-row"
        minWidth={900}
        pagination={
          caches.data ? { page, pageSize: PAGE_SIZE, total: caches.data.total, onChange: setPage } : undefined
        }
        empty={<EmptyState icon={IconDatabase} title={t("emptyTitle")} text={t("emptyText")} />}
      />
      <Title order={2} size="h4" mt="md">
        {t("calculator.title")}
      </Title>
      <SavingsCalculator currency={cur} tpm={caches.data?.tpm ?? null} />
    </Stack>
  );
}
