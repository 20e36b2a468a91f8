import { Badge, Button, Card, Group, SegmentedControl, Select, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { BillExport, ExportFormat } from "@moonport/contracts";
import { IconDownload, IconFileSpreadsheet } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeCell, StrongCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable, pagerOf } from "../../../components/console-kit/data-table.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { FormError } from "../../../components/form-error.tsx";
import { ApiError } from "../../../lib/api.ts";
import { billExportsQuery, downloadBillExport, useCreateBillExport } from "../api/bill-exports.ts";

/** Every month from `latest` back to `first` ("YYYY-MM"), newest first: each of them is final and exportable. */
function monthsBetween(first: string, latest: string): string[] {
  const out: string[] = [];
  let [y, m] = latest.split("-").map(Number) as [number, number];
  for (;;) {
    const v = `${y}-${String(m).padStart(2, "0")}`;
    if (v < first) break;
    out.push(v);
    m -= 1;
    if (m === 0) {
      y -= 1;
      m = 12;
    }
  }
  return out;
}

const STATUS_COLOR = { pending: "yellow", success: "teal", failed: "red" } as const;

/** Export records: queue a month's bill as XLSX or CSV, follow its status, download it. */
export function ExportsScreen({ orgId }: { orgId: string }) {
  const { t } = useTranslation("bills");
  const [page, setPage] = useState(1);
  const list = useQuery(billExportsQuery(orgId, page));
  const months = useMemo(
    () => (list.data ? monthsBetween(list.data.firstExportable, list.data.latestExportable) : []),
    [list.data],
  );
  const [month, setMonth] = useState<string | null>(null);
  const [format, setFormat] = useState<ExportFormat>("xlsx");
  const [error, setError] = useState<string>();
  const create = useCreateBillExport(orgId);
  const [downloading, setDownloading] = useState<string | null>(null);
  const reason = (e: unknown) => (e instanceof ApiError ? e.message : t("tryLater"));
  const chosen = month ?? months[0] ?? null;

  const submit = async () => {
    if (!chosen) return;
    setError(undefined);
    try {
      await create.mutateAsync({ month: chosen, format });
      setPage(1);
    } catch (e) {
      setError(t("failure.createExport", { reason: reason(e) }));
    }
  };
  const download = async (exp: BillExport) => {
    setDownloading(exp.id);
    try {
      await downloadBillExport(orgId, exp);
    } catch (e) {
      notifications.show({ color: "red", message: t("failure.downloadExport", { reason: reason(e) }) });
    } finally {
      setDownloading(null);
    }
  };

  const columns: DataColumn<BillExport>[] = [
    { id: "fileName", header: t("exports.fileName"), cell: (r) => <StrongCell>{r.fileName}</StrongCell> },
    { id: "month", header: t("exports.month"), cell: (r) => <Text size="sm">{r.month}</Text> },
    {
      id: "status",
      header: t("exports.status"),
      cell: (r) => (
        <Badge variant="light" color={STATUS_COLOR[r.status]} data-testid="export-status" data-status={r.status}>
          {t(`exports.statuses.${r.status}`)}
        </Badge>
      ),
    },
    { id: "createdTime", header: t("exports.createdTime"), cell: (r) => <DateTimeCell iso={r.createdTime} /> },
    {
      id: "download",
      header: "",
      align: "right",
      width: 140,
      cell: (r) => (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconDownload size={14} />}
          disabled={r.status !== "success"}
          loading={downloading === r.id}
          onClick={() => download(r)}
          data-testid="export-download"
        >
          {t("exports.download")}
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t("exports.rule")}
          </Text>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select
              label={t("exports.month")}
              data={months}
              value={chosen}
              onChange={setMonth}
              allowDeselect={false}
              w={160}
              data-testid="export-month"
            />
            <SegmentedControl
              value={format}
              onChange={(v) => setFormat(v as ExportFormat)}
              data={[
                { value: "xlsx", label: "XLSX" },
                { value: "csv", label: "CSV" },
              ]}
              aria-label={t("exports.format")}
            />
            <Button
              leftSection={<IconFileSpreadsheet size={16} />}
              onClick={submit}
              loading={create.isPending}
              disabled={!chosen}
              data-testid="export-create"
            >
              {t("exports.create")}
            </Button>
          </Group>
          <FormError message={error} />
        </Stack>
      </Card>
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        empty={<EmptyState icon={IconFileSpreadsheet} title={t("exports.emptyTitle")} text={t("exports.emptyText")} />}
        pagination={pagerOf(list.data, page, setPage)}
        minWidth={760}
        rowTestId="export-row"
      />
    </Stack>
  );
}
