import { Badge, Button, SegmentedControl, Stack, TextInput } from "@mantine/core";
import { RedeemVoucherRequest, type Voucher } from "@moonport/contracts";
import { IconTicket } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable, usePagedTable } from "../../../components/console-kit/data-table.tsx";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { ApiError } from "../../../lib/api.ts";
import { useRedeemVoucher, vouchersQuery } from "../api/billing-api.ts";

/** Vouchers: type, amount, used, status, created and expiry; redeem a code. */
export function VouchersScreen({ orgId, currency }: { orgId: string; currency: "CNY" | "USD" }) {
  const { t } = useTranslation("billing");
  const [status, setStatus] = useState<"all" | "effective" | "expired">("all");
  const [redeeming, setRedeeming] = useState(false);
  const vouchers = usePagedTable((page, pageSize) =>
    vouchersQuery(orgId, { page, pageSize, status: status === "all" ? undefined : status }),
  );
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
          vouchers.setPage(1);
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
          {...vouchers.table}
          getRowId={(v) => v.id}
          empty={<EmptyState icon={IconTicket} title={t("vouchers.empty")} text={t("vouchers.emptyText")} />}
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
  const redeem = useRedeemVoucher(orgId);
  const { field, dialog } = useDialogForm(RedeemVoucherRequest, {
    opened,
    onClose,
    defaultValues: { code: "" },
    submit: (v) => redeem.mutateAsync(v.code),
    // Server messages already read "Voucher redemption failed: <reason>"; anything else gets the default reason.
    failure: (reason, e) =>
      e instanceof ApiError && e.code.startsWith("voucher_code_")
        ? e.message
        : t("failure.redeem", { reason: e instanceof ApiError ? reason : t("failure.tryLater") }),
  });
  return (
    <FormDialog
      {...dialog}
      title={t("vouchers.redeemTitle")}
      submitLabel={t("vouchers.redeem")}
      submitTestId="redeem-submit"
      errorTestId="redeem-error"
    >
      <TextInput label={t("vouchers.code")} required {...field("code")} data-testid="redeem-code" />
    </FormDialog>
  );
}
