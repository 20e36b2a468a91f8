import { Anchor, Badge, Card, Group, Stack, Text } from "@mantine/core";
import { IconBell } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { money } from "../../../components/console-kit/money.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { paths } from "../../../lib/paths.ts";
import { alertSettingsQuery } from "../api/alert-settings.ts";

/** The balance alert at a glance (threshold, recipients, state) with a link to the alert settings. */
export function AlertSummaryCard({ orgId }: { orgId: string }) {
  const { t } = useTranslation("bills");
  const q = useQuery(alertSettingsQuery(orgId));
  return (
    <Card withBorder padding="lg" data-testid="alert-summary">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconBell size={18} stroke={1.6} />
          <Text fw={600}>{t("alerts.balanceTitle")}</Text>
          {q.data ? (
            <Badge variant="light" color={q.data.balanceEnabled ? "green" : "gray"}>
              {q.data.balanceEnabled ? t("alerts.summary.on") : t("alerts.summary.off")}
            </Badge>
          ) : null}
        </Group>
        <Anchor component={Link} to={paths.billAlerts} size="sm" data-testid="alert-summary-link">
          {t("alerts.summary.manage")}
        </Anchor>
      </Group>
      {q.isPending ? (
        <LoadingBlock rows={2} />
      ) : q.isError ? (
        <LoadError error={q.error} onRetry={() => q.refetch()} />
      ) : (
        <Stack gap={4} mt="sm">
          <Text size="sm">
            {t("alerts.summary.threshold", {
              amount: money((BigInt(q.data.balanceThreshold) * 1_000_000_000n).toString(), q.data.currency),
            })}
          </Text>
          <Text size="sm" c={q.data.recipients.length ? undefined : "orange"}>
            {q.data.recipients.length
              ? t("alerts.summary.recipients", { list: q.data.recipients.join(", ") })
              : t("alerts.summary.noRecipients")}
          </Text>
          {q.data.balanceEnabled && !q.data.armed ? (
            <Text size="xs" c="dimmed">
              {t("alerts.summary.sent")}
            </Text>
          ) : null}
        </Stack>
      )}
    </Card>
  );
}
