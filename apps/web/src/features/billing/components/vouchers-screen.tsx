import { Alert, Badge, Button, Group, Modal, SegmentedControl, Stack, TextInput } from "@mantine/core";
import { RedeemVoucherRequest, translateValidation, type Voucher } from "@moonport/contracts";
import { IconTicket } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { useRedeemVoucher, vouchersQuery } from "../api/billing-api.ts";

/** Vouchers: type, amount, used, status, created and expiry; redeem a code. */
export function VouchersScreen({ orgId, currency }: { orgId: string; currency: "CNY" | "USD" }) {
  const { t } = useTranslation("billing");
  const [status, setStatus] = useState<"all" | "effective" | "expired">("all");
  const [page, setPage] = useState(1);
  const [redeeming, setRedeeming] = useState(false);
  const q = useQuery(vouchersQuery(orgId, { page, pageSize: 10, status: status === "all" ? undefined : status }));
  const columns: DataColumn<Voucher>[] = [
    { id: "type", header: t("vouchers.type"), cell: (v) => t(`vouchers.types.${v.type}`) },
    { id: "amount", header: t("vouchers.amount"), align: "right", cell: (v) => money(v.amount, currency) },
    { id: "used", header: t("vouchers.used"), align: "right", cell: (v) => money(v.used, currency) },
    {
      id: "status",
      header: t("vouchers.statusLabel"),
      cell: (v) => (
        <Badge variant="light" color={v.status === "effective" ? "green" : "gray"}>
          {t(`vouchers.status.${v.status}`)}
        </Badge>
      ),
    },
    { id: "createdAt", header: t("vouchers.createdAt"), cell: (v) => <DateTimeCell iso={v.createdAt} /> },
    { id: "expiredAt", header: t("vouchers.expiredAt"), cell: (v) => <DateTimeCell iso={v.expiredAt} /> },
  ];
  return (
    <Stack gap="lg">
      <PageHeader
        title={t("vouchers.title")}
        description={t("vouchers.description")}
        actions={
          <Button onClick={() => setRedeeming(true)} data-testid="redeem-open">
            {t("vouchers.redeem")}
          </Button>
        }
      />
      <SegmentedControl
        w="fit-content"
        value={status}
        onChange={(v) => {
          setStatus(v as typeof status);
          setPage(1);
        }}
        data={[
          { value: "all", label: t("vouchers.all") },
          { value: "effective", label: t("vouchers.status.effective") },
          { value: "expired", label: t("vouchers.status.expired") },
        ]}
      />
      <div data-testid="vouchers-table">
        <DataTable
          columns={columns}
          rows={q.data?.items}
          query={q}
          getRowId={(v) => v.id}
          empty={<EmptyState icon={IconTicket} title={t("vouchers.empty")} text={t("vouchers.emptyText")} />}
          pagination={q.data ? { page, pageSize: 10, total: q.data.total, onChange: setPage } : undefined}
          minWidth={640}
          rowTestId="voucher-row"
        />
      </div>
      <RedeemDialog orgId={orgId} opened={redeeming} onClose={() => setRedeeming(false)} />
    </Stack>
  );
}

function RedeemDialog({ orgId, opened, onClose }: { orgId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation("billing");
  const locale = useLocale();
  const redeem = useRedeemVoucher(orgId);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = () => {
    setFailure(null);
    const parsed = RedeemVoucherRequest.safeParse({ code });
    if (!parsed.success) {
      setError(translateValidation(parsed.error.issues[0]!.message, locale));
      return;
    }
    setError(null);
    redeem.mutate(parsed.data.code, {
      onSuccess: () => {
        setCode("");
        onClose();
      },
      // Server messages already read "Voucher redemption failed: <reason>"; anything else gets the default reason.
      onError: (e) =>
        setFailure(
          e instanceof ApiError && e.code.startsWith("voucher_code_")
            ? e.message
            : t("failure.redeem", { reason: e instanceof ApiError ? e.message : t("failure.tryLater") }),
        ),
    });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t("vouchers.redeemTitle")}>
      <Stack gap="sm">
        <TextInput
          label={t("vouchers.code")}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={error}
          required
          data-testid="redeem-code"
        />
        {failure ? (
          <Alert color="red" data-testid="redeem-error">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button onClick={submit} loading={redeem.isPending} data-testid="redeem-submit">
            {t("vouchers.redeem")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
