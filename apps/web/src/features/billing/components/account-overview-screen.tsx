import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconReceipt } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DataTable } from "../../../components/console-kit/data-table.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState, LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../lib/paths.ts";
import { overviewQuery } from "../api/billing-api.ts";
import { paymentColumns } from "./payment-panel.tsx";

/**
 * Account overview: available, cash and voucher balance, tier and the road to the next, month spend, payments, and
 * the alert settings (`alerts`: the bills feature's card, composed by the route module since features do not
 * import each other).
 */
export function AccountOverviewScreen({ orgId, alerts }: { orgId: string; alerts?: ReactNode }) {
  const { t } = useTranslation("billing");
  const q = useQuery(overviewQuery(orgId));
  return (
    <Stack gap="lg">
      <PageHeader
        title={t("overview.title")}
        description={t("overview.description")}
        actions={
          <Button component={Link} to={paths.recharge} data-testid="overview-recharge">
            {t("overview.recharge")}
          </Button>
        }
      />
      {q.isPending ? (
        <LoadingBlock rows={5} />
      ) : q.isError ? (
        <LoadError error={q.error} onRetry={() => q.refetch()} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
            {(
              [
                ["available", q.data.available],
                ["cash", q.data.cash],
                ["voucher", q.data.voucher],
                ["monthSpend", q.data.monthSpend],
              ] as const
            ).map(([k, v]) => (
              <Card withBorder padding="md" key={k}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  {t(`overview.${k}`)}
                </Text>
                <Text fw={700} size="xl" mt={4} data-testid={`overview-${k}`}>
                  {money(v, q.data.currency)}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          {BigInt(q.data.testRecharge) > 0n ? (
            <Alert color="orange" variant="light" data-testid="overview-test-balance">
              {t("overview.testBalance", { amount: money(q.data.testRecharge, q.data.currency) })}
            </Alert>
          ) : null}
          <Card withBorder padding="lg">
            <Group justify="space-between" align="flex-start">
              <div>
                <Text size="sm" c="dimmed">
                  {t("overview.tier")}
                </Text>
                <Title order={3} mt={4} data-testid="overview-tier">
                  {t(`common:tierName.${q.data.tier.tier}`)}
                </Title>
                <Text size="sm" c="dimmed" mt={6} data-testid="overview-tier-progress">
                  {t("overview.recharged", { amount: money(q.data.cumulativeRecharge, q.data.currency) })}
                  {q.data.tierSource === "operator"
                    ? ` · ${t("overview.operatorTier")}`
                    : q.data.nextTier && q.data.toNextTier
                      ? ` · ${t("overview.toNext", { name: t(`common:tierName.${q.data.nextTier.tier}`), amount: money(q.data.toNextTier, q.data.currency) })}`
                      : ` · ${t("overview.topTier")}`}
                </Text>
              </div>
              <Anchor component={Link} to={paths.limits} size="sm">
                {t("overview.limits")}
              </Anchor>
            </Group>
          </Card>
          {alerts}
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={4}>{t("overview.recent")}</Title>
              <Anchor component={Link} to={paths.recharge} size="sm">
                {t("overview.allPayments")}
              </Anchor>
            </Group>
            <DataTable
              columns={paymentColumns(t)}
              rows={q.data.recentPayments}
              query={q}
              getRowId={(p) => p.id}
              empty={<EmptyState icon={IconReceipt} title={t("details.empty")} text={t("details.emptyText")} />}
              minWidth={480}
              rowTestId="recent-payment"
            />
          </Stack>
        </>
      )}
    </Stack>
  );
}
