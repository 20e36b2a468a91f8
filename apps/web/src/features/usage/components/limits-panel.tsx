import { Anchor, Badge, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { UsageLimits } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { DataTable, LOADED } from "../../../components/console-kit/data-table.tsx";
import { formatInt, money } from "../../../components/console-kit/money.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { limitsQuery } from "../api/get-limits.ts";

/** The organization's tier, its limits with current use, and the whole tier table. */
export function LimitsPanel({ orgId }: { orgId: string }) {
  const { t } = useTranslation("org");
  const limits = useQuery(limitsQuery(orgId));
  if (limits.isPending) return <LoadingBlock rows={6} />;
  if (limits.isError) return <LoadError error={limits.error} onRetry={() => limits.refetch()} />;
  return <LimitsView data={limits.data} t={t} />;
}

type TierRow = UsageLimits["tiers"][number];

function LimitsView({ data, t }: { data: UsageLimits; t: (k: string, o?: Record<string, unknown>) => string }) {
  const locale = useLocale();
  const n = (v: number) => formatInt(v, locale);
  const meters: { key: "concurrency" | "rpm" | "tpm" | "tpd"; limit: number | null; used: number | null }[] = [
    { key: "concurrency", limit: data.tier.concurrency, used: data.current.concurrency },
    { key: "rpm", limit: data.tier.rpm, used: data.current.rpm },
    { key: "tpm", limit: data.tier.tpm, used: data.current.tpm },
    { key: "tpd", limit: data.tier.tpd, used: data.current.tpd },
  ];
  return (
    <Stack gap="lg">
      <Card withBorder padding="lg">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text size="sm" c="dimmed">
              {t("limits.yourTier")}
            </Text>
            <Title order={3} mt={4} data-testid="tier-name">
              {t(`common:tierName.${data.tier.tier}`)}
            </Title>
            <Text size="sm" c="dimmed" mt={6} data-testid="tier-progress">
              {t("limits.recharged", { amount: money(data.cumulativeRecharge, data.currency) })}
              {data.tierSource === "operator"
                ? ` · ${t("limits.operatorTier")}`
                : data.nextTier && data.toNextTier
                  ? ` · ${t("limits.nextTier", {
                      name: t(`common:tierName.${data.nextTier.tier}`),
                      amount: money(data.toNextTier, data.currency),
                    })}`
                  : ""}
            </Text>
          </div>
          <Anchor href="/docs/pricing/limits" size="sm">
            {t("limits.docsLink")}
          </Anchor>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {meters.map((m) => {
          const pct = m.limit && m.used !== null ? Math.min(100, (m.used / m.limit) * 100) : 0;
          return (
            <Card withBorder padding="md" key={m.key} data-testid={`limit-${m.key}`}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {t(`limits.measure.${m.key}`)}
              </Text>
              <Text fw={700} size="xl" mt={4}>
                {m.limit === null ? t("limits.unlimited") : n(m.limit)}
              </Text>
              <Text size="xs" c="dimmed" mt={4}>
                {m.used === null ? t("limits.liveOnly") : t("limits.current", { value: n(m.used) })}
              </Text>
              {m.limit !== null && m.used !== null ? (
                <Progress value={pct} mt="xs" size="sm" color={pct > 80 ? "red" : "indigo"} />
              ) : null}
            </Card>
          );
        })}
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t("limits.source")}
      </Text>
      <Card withBorder padding={0}>
        <DataTable
          columns={[
            {
              id: "tier",
              header: t("limits.tier"),
              cell: (row: TierRow) => (
                <Group gap={6} wrap="nowrap">
                  {row.name}
                  {row.tier === data.tier.tier ? (
                    <Badge size="xs" variant="filled">
                      {t("limits.currentBadge")}
                    </Badge>
                  ) : null}
                </Group>
              ),
            },
            { id: "unlock", header: t("limits.unlock"), cell: (row) => money(row.recharge, data.currency) },
            { id: "concurrency", header: t("limits.measure.concurrency"), cell: (row) => n(row.concurrency) },
            { id: "rpm", header: t("limits.measure.rpm"), cell: (row) => n(row.rpm) },
            { id: "tpm", header: t("limits.measure.tpm"), cell: (row) => n(row.tpm) },
            {
              id: "tpd",
              header: t("limits.measure.tpd"),
              cell: (row) => (row.tpd === null ? t("limits.unlimited") : n(row.tpd)),
            },
          ]}
          rows={data.tiers}
          query={LOADED}
          getRowId={(row) => String(row.tier)}
          highlight={(row) => row.tier === data.tier.tier}
          empty={null}
          minWidth={640}
          striped
        />
      </Card>
    </Stack>
  );
}
