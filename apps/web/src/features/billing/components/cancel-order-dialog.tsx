import { Text } from "@mantine/core";
import type { Payment } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { ApiError } from "../../../lib/api.ts";
import { usePaymentAction } from "../api/billing-api.ts";

/**
 * Asks before an order is cancelled: a cancelled order cannot be paid any more, and a payer who already paid at the
 * provider should wait for the confirmation instead (money for a cancelled order waits for an operator).
 */
export function CancelOrderDialog({
  orgId,
  payment,
  onClose,
}: {
  orgId: string;
  payment: Payment | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("billing");
  const action = usePaymentAction(orgId);
  const close = () => {
    action.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      opened={payment !== null}
      onClose={close}
      title={t("cancelOrder.title")}
      confirmLabel={t("cancelOrder.confirm")}
      cancelLabel={t("cancelOrder.keep")}
      confirmTestId="cancel-order-confirm"
      pending={action.isPending}
      error={
        action.error
          ? t("failure.cancel", {
              reason: action.error instanceof ApiError ? action.error.message : t("failure.tryLater"),
            })
          : undefined
      }
      onConfirm={() => payment && action.mutate({ id: payment.id, action: "cancel" }, { onSuccess: close })}
    >
      {payment ? (
        <Text size="sm">
          {t("cancelOrder.text", {
            amount: money(payment.amount, payment.currency),
            method: t(`payType.${payment.paymentType}`),
          })}
        </Text>
      ) : null}
    </ConfirmDialog>
  );
}
