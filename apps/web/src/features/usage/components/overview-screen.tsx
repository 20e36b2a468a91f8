import "@mantine/charts/styles.css";
import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import type { OrgOverview } from "@moonport/contracts";
import { IconFolder, IconKey, IconUsers } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatInt, money } from "../../../components/console-kit/money.ts";
import { SpendChart } from "../../../components/console-kit/spend-chart.tsx";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { timeZoneName } from "../../../components/console-kit/time-zone.ts";
import { useLocale } from "../../../i18n/index.ts";
import { paths } from "../../../lib/paths.ts";
import { overviewQuery } from "../api/get-overview.ts";

/** Organization overview: balance, tier, this month's spend by day, counts. */
export function OverviewScreen({ orgId }: { orgId: string }) {
  const overview = useQuery(overviewQuery(orgId));
  if (overview.isPending) return <LoadingBlock rows={6} />;
  if (overview.isError) return <LoadError error={overview.error} onRetry={() => overview.refetch()} />;
  return <OverviewView data={overview.data} />;
}

function OverviewView({ data }: { data: OrgOverview }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const hasSpend = BigInt(data.month.total) > 0n;
  const counts = [
    { key: "projects", icon: IconFolder, value: data.counts.projects, to: paths.projects },
    { key: "apiKeys", icon: IconKey, value: data.counts.apiKeys, to: paths.apiKeys },
    {
      key: "members",
      icon: IconUsers,
      value: data.counts.members,
      to: data.role === "admin" ? paths.organization("members") : undefined,
    },
  ] as const;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Card withBorder padding="lg" data-testid="balance-card">
          <Text size="sm" c="dimmed">
            {t("overview.balance")}
          </Text>
          <Title order={2} mt={4}>
            {money(data.balance.total, data.currency)}
          </Title>
          <Text size="xs" c="dimmed" mt={6}>
            {t("overview.balanceSplit", {
              cash: money(data.balance.cash, data.currency),
              voucher: money(data.balance.voucher, data.currency),
            })}
          </Text>
        </Card>
        <Card withBorder padding="lg">
          <Text size="sm" c="dimmed">
            {t("overview.tier")}
          </Text>
          <Group gap="xs" mt={4}>
            <Title order={2}>{t(`common:tierName.${data.tier.tier}`)}</Title>
          </Group>
          <Anchor component={Link} to={paths.limits} size="xs" mt={6}>
            {t("overview.seeLimits")}
          </Anchor>
        </Card>
        <Card withBorder padding="lg">
          <Text size="sm" c="dimmed">
            {t("overview.monthSpend", { period: data.month.period })}
          </Text>
          <Title order={2} mt={4}>
            {money(data.month.total, data.currency)}
          </Title>
          <Text size="xs" c="dimmed" mt={6}>
            {data.role === "admin" ? t("overview.scopeAll") : t("overview.scopeMine")}
          </Text>
        </Card>
      </SimpleGrid>
      <Card withBorder padding="lg">
        <Group justify="space-between" mb="md">
          <Title order={5}>{t("overview.dailySpend")}</Title>
          <Badge variant="light" color="gray" tt="none" title={data.timeZone}>
            {timeZoneName(data.timeZone, locale)}
          </Badge>
        </Group>
        {hasSpend ? (
          <SpendChart series={data.month.daily} currency={data.currency} label={t("overview.spend")} />
        ) : (
          <Text size="sm" c="dimmed" ta="center" py={48}>
            {t("overview.noSpend")}
          </Text>
        )}
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {counts.map((c) => (
          <Card withBorder padding="lg" key={c.key}>
            <Group justify="space-between">
              <div>
                <Text size="sm" c="dimmed">
                  {t(`overview.count.${c.key}`)}
                </Text>
                <Title order={3} mt={4}>
                  {formatInt(c.value, locale)}
                </Title>
              </div>
              <ThemeIcon variant="light" size={44} radius="xl">
                <c.icon size={24} stroke={1.5} />
              </ThemeIcon>
            </Group>
            {c.to ? (
              <Anchor component={Link} to={c.to} size="xs">
                {t("overview.manage")}
              </Anchor>
            ) : null}
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
