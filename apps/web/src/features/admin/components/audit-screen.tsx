import { Button, Code, Stack, Text, TextInput } from "@mantine/core";
import type { AdminAuditEntry } from "@moonport/contracts";
import { IconDownload, IconSearch } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable, pagerOf } from "../../../components/console-kit/data-table.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { auditCsvUrl, auditQuery } from "../api/admin.ts";
import { useSearchPage } from "./use-search-page.ts";

const show = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v));

/** Back office → Audit log: every operator action with what it changed; searchable and exportable. */
export function AuditScreen() {
  const { t } = useTranslation("admin");
  const { search, setSearch, q, page, setPage } = useSearchPage();
  const list = useQuery(auditQuery(q, page));
  const columns: DataColumn<AdminAuditEntry>[] = [
    { id: "time", header: t("audit.time"), cell: (r) => <DateTimeCell iso={r.createdAt} /> },
    { id: "actor", header: t("audit.actor"), cell: (r) => <Text size="sm">{r.actorName ?? r.actor}</Text> },
    { id: "action", header: t("audit.action"), cell: (r) => <Code data-testid="audit-action">{r.action}</Code> },
    { id: "target", header: t("audit.target"), cell: (r) => <Text size="sm">{r.target ?? "—"}</Text> },
    {
      id: "change",
      header: t("audit.change"),
      cell: (r) => (
        <Stack gap={2} maw={420}>
          {r.before !== null || r.after !== null ? (
            <Text size="xs" ff="monospace" style={{ wordBreak: "break-all" }}>
              {show(r.before)} → {show(r.after)}
            </Text>
          ) : null}
          {r.details && Object.keys(r.details as object).length > 0 ? (
            <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: "break-all" }}>
              {show(r.details)}
            </Text>
          ) : null}
        </Stack>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title={t("audit.title")}
        description={t("audit.description")}
        actions={
          <Button
            component="a"
            href={auditCsvUrl(q)}
            variant="default"
            leftSection={<IconDownload size={16} />}
            data-testid="audit-export"
          >
            {t("audit.export")}
          </Button>
        }
      />
      <TextInput
        placeholder={t("audit.search")}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={420}
        mb="md"
        data-testid="audit-search"
      />
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        rowTestId="audit-row"
        minWidth={900}
        empty={<EmptyState title={t("audit.empty")} />}
        pagination={pagerOf(list.data, page, setPage)}
      />
    </>
  );
}
