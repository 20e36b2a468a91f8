import "@mantine/charts/styles.css";
import { Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { Currency, ProjectOverview } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { formatInt, money } from "../../../../components/console-kit/money.ts";
import { SpendChart } from "../../../../components/console-kit/spend-chart.tsx";
import { useLocale } from "../../../../i18n/index.ts";

/** Today's and this month's spend, keys and members, and spend by day. */
export function OverviewTab({ data, currency }: { data: ProjectOverview; currency: Currency }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const stats = [
    { label: t("projects.spendToday"), value: money(data.spend.today, currency) },
    { label: t("projects.spendMonth"), value: money(data.spend.month, currency) },
    {
      label: t("projects.keysEnabled"),
      value: `${formatInt(data.keys.enabled, locale)} / ${formatInt(data.keys.total, locale)}`,
    },
    { label: t("projects.membersCount"), value: formatInt(data.members, locale) },
  ];
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        {stats.map((s) => (
          <Card withBorder padding="md" key={s.label}>
            <Text size="sm" c="dimmed">
              {s.label}
            </Text>
            <Title order={3} mt={4}>
              {s.value}
            </Title>
          </Card>
        ))}
      </SimpleGrid>
      <Card withBorder padding="lg">
        <Title order={5} mb="md">
          {t("overview.dailySpend")}
        </Title>
        {BigInt(data.spend.month) > 0n ? (
          <SpendChart series={data.spend.daily} currency={currency} label={t("overview.spend")} />
        ) : (
          <Text size="sm" c="dimmed" ta="center" py={48}>
            {t("overview.noSpend")}
          </Text>
        )}
      </Card>
    </Stack>
  );
}
