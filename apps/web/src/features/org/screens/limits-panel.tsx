import { Anchor, Badge, Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import type { UsageLimits } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../../i18n/index.ts";
import { limitsQuery } from "../api/queries.ts";
import { formatInt, money } from "../components/format.ts";
import { LoadError, LoadingBlock } from "../components/states.tsx";

/** The organization's tier, its limits with current use, and the whole tier table. */
export function LimitsPanel({ orgId }: { orgId: string }) {
  const { t } = useTranslation("org");
  const limits = useQuery(limitsQuery(orgId));
  if (limits.isPending) return <LoadingBlock rows={6} />;
  if (limits.isError) return <LoadError error={limits.error} onRetry={() => limits.refetch()} />;
  return <LimitsView data={limits.data} t={t} />;
}

function LimitsView({ data, t }: { data: UsageLimits; t: (k: string, o?: Record<string, unknown>) => string }) {
  const locale = useLocale();
  const n = (v: number) => formatInt(v, locale);
  const meters: { key: "concurrency" | "rpm" | "tpm" | "tpd"; limit: number | null; used: number | null }[] = [
    { key: "concurrency", limit: data.tier.concurrency, used: data.current.concurrency },
    { key: "rpm", limit: data.tier.rpm, used: data.current.rpm },
    { key: "tpm", limit: data.tier.tpm, used: data.current.tpm },
    { key: "tpd", limit: data.tier.tpd, used: data.current.tpd },
  ];
  const next = data.tiers.find((x) => x.tier === data.tier.tier + 1);
  return (
    <Stack gap="lg">
      <Card withBorder padding="lg">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text size="sm" c="dimmed">
              {t("limits.yourTier")}
            </Text>
            <Group gap="xs" mt={4}>
              <Title order={3}>{data.tier.name}</Title>
              <Badge variant="light">{t("limits.level", { level: data.tier.tier })}</Badge>
            </Group>
            <Text size="sm" c="dimmed" mt={6}>
              {t("limits.recharged", { amount: money(data.cumulativeRecharge, data.currency) })}
              {next
                ? ` · ${t("limits.nextTier", { name: next.name, amount: money(next.recharge, data.currency) })}`
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
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("limits.tier")}</Table.Th>
                <Table.Th>{t("limits.unlock")}</Table.Th>
                <Table.Th>{t("limits.measure.concurrency")}</Table.Th>
                <Table.Th>{t("limits.measure.rpm")}</Table.Th>
                <Table.Th>{t("limits.measure.tpm")}</Table.Th>
                <Table.Th>{t("limits.measure.tpd")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.tiers.map((row) => (
                <Table.Tr key={row.tier} fw={row.tier === data.tier.tier ? 700 : undefined}>
                  <Table.Td>
                    <Group gap={6}>
                      {row.name}
                      {row.tier === data.tier.tier ? (
                        <Badge size="xs" variant="filled">
                          {t("limits.currentBadge")}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>{money(row.recharge, data.currency)}</Table.Td>
                  <Table.Td>{n(row.concurrency)}</Table.Td>
                  <Table.Td>{n(row.rpm)}</Table.Td>
                  <Table.Td>{n(row.tpm)}</Table.Td>
                  <Table.Td>{row.tpd === null ? t("limits.unlimited") : n(row.tpd)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </Stack>
  );
}
