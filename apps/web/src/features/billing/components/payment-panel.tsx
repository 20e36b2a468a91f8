import { Alert, Anchor, Badge, Button, Card, Group, Image, Stack, Table, Text } from "@mantine/core";
import type { Payment } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import QRCode from "qrcode";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import type { DataColumn } from "../../../components/console-kit/data-table.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { ApiError } from "../../../lib/api.ts";
import { paymentQuery, usePaymentAction, useRefreshBilling } from "../api/billing-api.ts";
import { CancelOrderDialog } from "./cancel-order-dialog.tsx";

export const STATUS_COLOR: Record<Payment["status"], string> = {
  success: "green",
  failed: "red",
  waiting: "yellow",
  closed: "gray",
};

/** The payment list's columns (recharge details, the overview's recent payments), plus an optional action column. */
export function paymentColumns(t: TFunction<"billing">, action?: DataColumn<Payment>): DataColumn<Payment>[] {
  const cols: DataColumn<Payment>[] = [
    { id: "createdAt", header: t("details.createdAt"), cell: (p) => <DateTimeCell iso={p.createdAt} /> },
    { id: "amount", header: t("details.amount"), align: "right", cell: (p) => money(p.amount, p.currency) },
    { id: "paymentType", header: t("details.paymentType"), cell: (p) => t(`payType.${p.paymentType}`) },
    {
      id: "status",
      header: t("details.status"),
      cell: (p) => (
        <Group gap={6} wrap="nowrap">
          <Badge color={STATUS_COLOR[p.status]} variant="light">
            {t(`status.${p.status}`)}
          </Badge>
          {p.test ? <TestBadge /> : null}
          {BigInt(p.refundedAmount) > 0n ? (
            <Badge color="grape" variant="light" data-testid="payment-refunded">
              {p.refundedAmount === p.amount
                ? t("details.refunded")
                : t("details.refundedPart", { amount: money(p.refundedAmount, p.currency) })}
            </Badge>
          ) : null}
        </Group>
      ),
    },
  ];
  return action ? [...cols, action] : cols;
}

/** A sandbox payment is marked wherever it is shown: it moved no real money. */
function TestBadge() {
  const { t } = useTranslation("billing");
  return (
    <Badge color="orange" variant="outline" data-testid="payment-test">
      {t("details.test")}
    </Badge>
  );
}

function Qr({ content }: { content: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    const url = new URL(content, window.location.origin).toString();
    QRCode.toDataURL(url, { margin: 1, width: 200 }).then(setSrc, () => setSrc(null));
  }, [content]);
  return src ? <Image src={src} w={200} h={200} alt="QR" data-testid="payment-qr" data-qr-content={content} /> : null;
}

/**
 * Refreshes the billing reads whenever the order's state differs from what this panel last saw (paid, failed,
 * closed): the lists and the balance around the panel then show what the panel shows, without a reload.
 */
function useRefreshOnStatus(orgId: string, status: Payment["status"] | undefined) {
  const refresh = useRefreshBilling(orgId);
  const seen = useRef<Payment["status"] | undefined>(undefined);
  useEffect(() => {
    if (!status || status === seen.current) return;
    // The first sight of a waiting order changes nothing the lists do not already show.
    if (seen.current !== undefined || status !== "waiting") void refresh();
    seen.current = status;
  }, [status, refresh]);
}

/** One order: how to pay it while it waits (QR, hosted checkout, bank details), its state, continue or cancel. */
export function PaymentPanel({ orgId, paymentId, onClose }: { orgId: string; paymentId: string; onClose: () => void }) {
  const { t } = useTranslation("billing");
  const q = useQuery(paymentQuery(orgId, paymentId));
  const action = usePaymentAction(orgId);
  const [error, setError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  useRefreshOnStatus(orgId, q.data?.status);
  const p = q.data;
  if (!p) return null;
  const payAgain = () => {
    setError(null);
    action.mutate(
      { id: p.id, action: "continue" },
      { onError: (e) => setError(e instanceof ApiError ? e.message : t("failure.tryLater")) },
    );
  };
  return (
    <Card withBorder padding="lg" data-testid="payment-panel">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>
            {t("payment.order")} · {money(p.amount, p.currency)} · {t(`payType.${p.paymentType}`)}
          </Text>
          <Group gap={6}>
            {p.test ? <TestBadge /> : null}
            <Badge color={STATUS_COLOR[p.status]} data-testid="payment-status">
              {t(`status.${p.status}`)}
            </Badge>
          </Group>
        </Group>
        {p.status === "waiting" ? (
          <>
            {p.qrContent ? (
              <Stack gap={4} align="flex-start">
                <Text size="sm">{t(`payment.scan.${p.paymentType}`)}</Text>
                <Qr content={p.qrContent} />
              </Stack>
            ) : null}
            {p.checkoutUrl ? (
              <Anchor href={p.checkoutUrl} target="_blank" rel="noopener">
                {t("payment.openCheckout")}
              </Anchor>
            ) : null}
            {p.transfer ? (
              <Table withTableBorder variant="vertical" data-testid="transfer-details">
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th>{t("transfer.accountName")}</Table.Th>
                    <Table.Td>{p.transfer.accountName}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t("transfer.bank")}</Table.Th>
                    <Table.Td>{p.transfer.bank}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t("transfer.accountNumber")}</Table.Th>
                    <Table.Td>{p.transfer.accountNumber}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t("transfer.reference")}</Table.Th>
                    <Table.Td fw={700}>{p.transfer.reference}</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            ) : null}
            <Alert color="yellow" variant="light">
              {p.transfer ? t("transfer.hint") : t("payment.pending")}
            </Alert>
            <Group>
              {p.paymentType === "credit_card" ? (
                <Button onClick={payAgain} loading={action.isPending} data-testid="payment-pay-again">
                  {t("payment.continue")}
                </Button>
              ) : null}
              <Button variant="default" onClick={() => setCancelling(true)} data-testid="payment-cancel">
                {t("payment.cancel")}
              </Button>
              <Button variant="subtle" onClick={onClose} data-testid="payment-later">
                {t("payment.later")}
              </Button>
            </Group>
            <CancelOrderDialog orgId={orgId} payment={cancelling ? p : null} onClose={() => setCancelling(false)} />
          </>
        ) : (
          <>
            <Text size="sm" data-testid="payment-result">
              {t(`payment.result.${p.status}`)}
            </Text>
            <Group>
              <Button variant="default" onClick={onClose}>
                {t("payment.done")}
              </Button>
            </Group>
          </>
        )}
        {error ? <Alert color="red">{error}</Alert> : null}
      </Stack>
    </Card>
  );
}
