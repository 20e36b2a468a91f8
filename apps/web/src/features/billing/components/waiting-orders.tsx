import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import type { Payment } from "@moonport/contracts";
import { IconClockHour4 } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { money } from "../../../components/console-kit/money.ts";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { waitingPaymentsQuery } from "../api/billing-api.ts";
import { CancelOrderDialog } from "./cancel-order-dialog.tsx";

/**
 * The organization's unpaid orders, first on the recharge screen: while one waits no new order can start
 * (docs/product-spec.md §4), so each offers Continue (open it to pay) and Cancel. The order open in the panel below
 * is left out.
 */
export function WaitingOrders({
  orgId,
  openId,
  onContinue,
}: {
  orgId: string;
  openId: string | null;
  onContinue: (id: string) => void;
}) {
  const { t } = useTranslation("billing");
  const locale = useLocale();
  const q = useQuery(waitingPaymentsQuery(orgId));
  const [cancelling, setCancelling] = useState<Payment | null>(null);
  const orders = (q.data?.items ?? []).filter((p) => p.id !== openId);
  const dialog = <CancelOrderDialog orgId={orgId} payment={cancelling} onClose={() => setCancelling(null)} />;
  if (!orders.length) return dialog;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconClockHour4 size={18} />}
      title={t("waiting.title")}
      data-testid="waiting-orders"
    >
      <Stack gap="sm">
        <Text size="sm">{t("waiting.text")}</Text>
        {orders.map((p) => (
          <Group key={p.id} justify="space-between" gap="xs" wrap="wrap" data-testid="waiting-order">
            <Text size="sm" fw={500}>
              {money(p.amount, p.currency)} · {t(`payType.${p.paymentType}`)} ·{" "}
              <Text span size="sm" c="dimmed" fw={400}>
                {formatDateTime(p.createdAt, locale)}
              </Text>
            </Text>
            <Group gap="xs">
              <Button size="xs" onClick={() => onContinue(p.id)} data-testid="waiting-continue">
                {t("waiting.continue")}
              </Button>
              <Button size="xs" variant="default" onClick={() => setCancelling(p)} data-testid="waiting-cancel">
                {t("waiting.cancel")}
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
      {dialog}
    </Alert>
  );
}
