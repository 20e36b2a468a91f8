import { Badge, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import type { ConsoleFile } from "@moonport/contracts";
import { IconFiles, IconSearch } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeCell, TextCell } from "../../../components/console-kit/cells.tsx";
import { columns as col } from "../../../components/console-kit/columns.tsx";
import { useCurrentOrg } from "../../../components/console-kit/current-org.ts";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { withFetchFailure } from "../../../components/console-kit/failure.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { filesQuery } from "../api/get-files.ts";
import { Capacity } from "./capacity.tsx";
import { DeleteFileDialog } from "./delete-file-dialog.tsx";
import { FileContentDialog } from "./file-content-dialog.tsx";
import { formatBytes } from "./format-bytes.ts";
import { UploadZone } from "./upload-zone.tsx";

const PAGE_SIZE = 10;

function StatusBadge({ file }: { file: ConsoleFile }) {
  const { t } = useTranslation("files");
  const color = file.status === "ok" ? "green" : file.status === "error" ? "red" : "blue";
  const badge = (
    <Badge color={color} variant="light" data-testid="file-status">
      {t(`status.${file.status}`)}
    </Badge>
  );
  return file.status === "error" && file.status_details ? (
    <Tooltip label={file.status_details} multiline w={280}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}

/** Resources → Files: capacity, upload, search, the paged list, extracted text and deletion. */
export function FilesScreen() {
  const { t } = useTranslation("files");
  const org = useCurrentOrg();
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      {org ? <FilesPanel key={org.id} orgId={org.id} /> : <EmptyState title={t("selectOrgFirst")} />}
    </>
  );
}

function FilesPanel({ orgId }: { orgId: string }) {
  const { t } = useTranslation("files");
  const locale = useLocale();
  const [search, setSearch] = useState("");
  const [q] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const files = useQuery(filesQuery(orgId, q, page, PAGE_SIZE));
  const [viewing, setViewing] = useState<ConsoleFile | null>(null);
  const [deleting, setDeleting] = useState<ConsoleFile | null>(null);

  const columns: DataColumn<ConsoleFile>[] = [
    {
      id: "name",
      header: t("columns.name"),
      cell: (f) => (
        <>
          <Text fw={500} size="sm" style={{ wordBreak: "break-all" }}>
            {f.filename}
          </Text>
          <Text size="xs" c="dimmed">
            {f.id}
          </Text>
        </>
      ),
    },
    {
      id: "size",
      header: t("columns.size"),
      align: "right",
      cell: (f) => <TextCell>{formatBytes(f.bytes, locale)}</TextCell>,
    },
    { id: "purpose", header: t("columns.purpose"), cell: (f) => <TextCell>{f.purpose}</TextCell> },
    { id: "status", header: t("columns.status"), cell: (f) => <StatusBadge file={f} /> },
    { id: "project", header: t("columns.project"), cell: (f) => <TextCell>{f.project_name}</TextCell> },
    {
      id: "uploader",
      header: t("columns.uploadedBy"),
      cell: (f) => <TextCell>{f.uploaded_by ?? (f.project_id ? t("viaApi") : null)}</TextCell>,
    },
    {
      id: "createdAt",
      header: t("columns.createdAt"),
      cell: (f) => <DateTimeCell iso={new Date(f.created_at * 1000).toISOString()} />,
    },
    col.actions(
      (f) => t("actions", { name: f.filename }),
      (f) => [
        ...(f.status === "ok" && f.purpose === "file-extract"
          ? [{ label: t("viewText"), onClick: () => setViewing(f) }]
          : []),
        ...(f.can_delete ? [{ label: t("delete.action"), danger: true, onClick: () => setDeleting(f) }] : []),
      ],
    ),
  ];

  // §8: "File list fetch failed: {reason}" in the table's error state.
  const query = withFetchFailure(files, (reason) => t("failure.fetch", { reason: reason ?? t("failure.tryLater") }));

  return (
    <Stack gap="md">
      {files.data ? <Capacity usage={files.data.usage} /> : null}
      <UploadZone orgId={orgId} />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t("search")}
        aria-label={t("search")}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        w={{ base: "100%", sm: 320 }}
      />
      <DataTable
        columns={columns}
        rows={files.data?.items}
        query={query}
        getRowId={(f) => f.id}
        rowTestId="file-row"
        minWidth={960}
        pagination={files.data ? { page, pageSize: PAGE_SIZE, total: files.data.total, onChange: setPage } : undefined}
        empty={
          <EmptyState
            icon={IconFiles}
            title={q ? t("emptySearchTitle") : t("emptyTitle")}
            text={q ? t("emptySearchText", { q }) : t("emptyText")}
          />
        }
      />
      <FileContentDialog orgId={orgId} file={viewing} onClose={() => setViewing(null)} />
      <DeleteFileDialog orgId={orgId} row={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
