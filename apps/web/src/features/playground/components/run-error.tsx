import { Alert, Anchor, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../lib/paths.ts";
import type { RunStatus } from "./use-runner.ts";

/**
 * A run that failed, with what the user can do about it: a rate limit names the limit and when to retry (the
 * server's message) and links the tier's limits; a used-up balance links the recharge page.
 */
export function RunError({ status }: { status: RunStatus | undefined }) {
  const { t } = useTranslation("playground");
  if (!status?.error) return null;
  const action =
    status.errorCode === "playground_rate_limited"
      ? { to: paths.limits, label: t("errors.limitsLink"), hint: t("errors.limitsHint"), id: "run-error-limits" }
      : status.errorCode === "playground_insufficient_balance"
        ? { to: paths.recharge, label: t("errors.rechargeLink"), hint: null, id: "run-error-recharge" }
        : null;
  return (
    <Alert color="red" variant="light" data-testid="run-error" data-code={status.errorCode}>
      <Stack gap={4}>
        <Text size="sm">{status.error}</Text>
        {action?.hint ? (
          <Text size="xs" c="dimmed">
            {action.hint}
          </Text>
        ) : null}
        {action ? (
          <Anchor component={Link} to={action.to} size="sm" fw={500} data-testid={action.id}>
            {action.label}
          </Anchor>
        ) : null}
      </Stack>
    </Alert>
  );
}
