import { Badge, Card, Code, Stack, Text } from "@mantine/core";
import type { AdminCatalog } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { formatInt } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { catalogQuery } from "../api/admin.ts";

type Model = AdminCatalog["models"][number];
type Upstream = AdminCatalog["upstreams"][number];

/** Back office → Catalog: models with their prices per edition and what serves them; upstream health. */
export function CatalogScreen() {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const q = useQuery(catalogQuery());
  const price = (p: Model["prices"]["CNY"], symbol: string) =>
    `${symbol}${p.input} / ${symbol}${p.output}${p.cacheHit ? ` · ${symbol}${p.cacheHit}` : ""}`;
  const modelColumns: DataColumn<Model>[] = [
    {
      id: "id",
      header: t("catalog.model"),
      cell: (m) => (
        <Stack gap={0}>
          <Code>{m.id}</Code>
          {m.listed ? null : (
            <Text size="xs" c="dimmed">
              {t("catalog.billingOnly")}
            </Text>
          )}
        </Stack>
      ),
    },
    { id: "context", header: t("catalog.context"), align: "right", cell: (m) => formatInt(m.contextWindow, locale) },
    { id: "cny", header: t("catalog.pricesCny"), cell: (m) => <Text size="sm">{price(m.prices.CNY, "¥")}</Text> },
    { id: "usd", header: t("catalog.pricesUsd"), cell: (m) => <Text size="sm">{price(m.prices.USD, "$")}</Text> },
    {
      id: "served",
      header: t("catalog.servedBy"),
      cell: (m) =>
        m.servedBy === "simulator" ? (
          <Badge variant="light" color="gray">
            {t("catalog.simulator")}
          </Badge>
        ) : (
          <Badge variant="light" color="indigo">
            {m.servedBy === "*" ? t("catalog.fallback") : m.servedBy}
          </Badge>
        ),
    },
  ];
  const upstreamColumns: DataColumn<Upstream>[] = [
    {
      id: "model",
      header: t("catalog.route"),
      cell: (u) => <Code>{u.model === "*" ? t("catalog.fallback") : u.model}</Code>,
    },
    { id: "url", header: t("catalog.address"), cell: (u) => <Text size="sm">{u.baseUrl}</Text> },
    {
      id: "state",
      header: t("catalog.state"),
      cell: (u) => {
        const failing = u.lastErrorAt !== null && (u.lastOkAt === null || u.lastErrorAt > u.lastOkAt);
        const color = u.requests === 0 ? "gray" : failing ? "red" : "green";
        const label = u.requests === 0 ? t("catalog.idle") : failing ? t("catalog.failing") : t("catalog.healthy");
        return (
          <Badge variant="light" color={color} data-testid="upstream-state">
            {label}
          </Badge>
        );
      },
    },
    {
      id: "requests",
      header: t("catalog.requests"),
      align: "right",
      cell: (u) => `${formatInt(u.requests, locale)} / ${formatInt(u.errors, locale)}`,
    },
    {
      id: "latency",
      header: t("catalog.latency"),
      align: "right",
      cell: (u) => (u.latencyMs === null ? "—" : `${formatInt(u.latencyMs, locale)} ms`),
    },
    {
      id: "lastError",
      header: t("catalog.lastError"),
      cell: (u) =>
        u.lastError && u.lastErrorAt ? (
          <Stack gap={0} maw={360}>
            <DateTimeCell iso={u.lastErrorAt} />
            <Text size="xs" c="red" lineClamp={2}>
              {u.lastError}
            </Text>
          </Stack>
        ) : (
          "—"
        ),
    },
  ];
  return (
    <>
      <PageHeader title={t("catalog.title")} description={t("catalog.description")} />
      <Stack gap="lg">
        <Card withBorder padding="md">
          <Text fw={600} mb="sm">
            {t("catalog.upstreams")}
          </Text>
          <DataTable
            columns={upstreamColumns}
            rows={q.data?.upstreams}
            query={q}
            getRowId={(u) => u.model}
            rowTestId="upstream-row"
            minWidth={860}
            empty={<EmptyState title={t("catalog.noUpstreams")} text={t("catalog.noUpstreamsHint")} />}
          />
        </Card>
        <Card withBorder padding="md">
          <Text fw={600} mb="sm">
            {t("catalog.models")}
          </Text>
          <Text size="xs" c="dimmed" mb="sm">
            {t("catalog.pricesHint")}
          </Text>
          <DataTable
            columns={modelColumns}
            rows={q.data?.models}
            query={q}
            getRowId={(m) => m.id}
            rowTestId="catalog-model-row"
            minWidth={860}
            empty={<EmptyState title={t("catalog.models")} />}
          />
        </Card>
      </Stack>
    </>
  );
}
