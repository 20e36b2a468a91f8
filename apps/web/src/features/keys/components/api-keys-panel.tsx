import { Alert, Anchor, Badge, Button, Code, Group, Select, Stack, Switch, Text } from "@mantine/core";
import type { ApiKeyRow, OrgRole } from "@moonport/contracts";
import { IconInfoCircle, IconKey, IconPlus } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DateTimeCell, TextCell } from "../../../components/console-kit/cells.tsx";
import { columns as col } from "../../../components/console-kit/columns.tsx";
import { type DataColumn, DataTable, usePagedTable } from "../../../components/console-kit/data-table.tsx";
import { useNotifyFailure } from "../../../components/console-kit/failure.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { apiKeysQuery } from "../api/get-api-keys.ts";
import { projectOptionsQuery } from "../api/get-project-options.ts";
import { useUpdateApiKey } from "../api/update-api-key.ts";
import { CreateKeyDialog } from "./create-key-dialog.tsx";
import { DeleteKeyDialog } from "./delete-key-dialog.tsx";
import { RenameKeyDialog } from "./rename-key-dialog.tsx";

const _PAGE_SIZE = 10;

/**
 * API keys of the organization (or of one project): list, create (secret shown once), rename, enable/disable,
 * delete. What the list contains is decided by the server's role rules.
 */
export function ApiKeysPanel({
  orgId,
  role,
  projectId,
  readOnly = false,
}: {
  orgId: string;
  role: OrgRole;
  /** Fixed project (project screen); otherwise a filter is shown. */
  projectId?: string;
  readOnly?: boolean;
}) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const [filter, setFilter] = useState<string | null>(null);
  const keys = usePagedTable((page, pageSize) => apiKeysQuery(orgId, page, pageSize, projectId ?? filter ?? undefined));
  const projects = useQuery({ ...projectOptionsQuery(orgId), enabled: !projectId });
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<ApiKeyRow | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyRow | null>(null);
  const update = useUpdateApiKey(orgId);
  const notifyFailure = useNotifyFailure();
  const projectOptions = projects.data ?? [];
  // A key needs a project: without one the create button would open a dialog with an empty list.
  const noProject = !projectId && projects.isSuccess && projectOptions.length === 0;
  const canCreate = !readOnly && !noProject;

  const columns: DataColumn<ApiKeyRow>[] = [
    {
      id: "name",
      header: t("keys.name"),
      cell: (k) => (
        <>
          <Text fw={500} size="sm">
            {k.name}
          </Text>
          <Text size="xs" c="dimmed">
            {k.id}
          </Text>
        </>
      ),
    },
    { id: "key", header: t("keys.key"), cell: (k) => <Code style={{ whiteSpace: "nowrap" }}>{k.mask}</Code> },
    {
      id: "project",
      header: t("keys.project"),
      cell: (k) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{k.project.name}</Text>
          {k.project.status === "archived" ? (
            <Badge size="xs" color="gray" variant="light">
              {t("projects.status.archived")}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    {
      id: "creator",
      header: t("keys.creator"),
      cell: (k) => <TextCell>{k.creator.nickname ?? t("keys.formerMember")}</TextCell>,
    },
    {
      id: "createdAt",
      header: t("keys.createdAt"),
      cell: (k) => <DateTimeCell iso={k.createdAt} />,
    },
    {
      id: "lastUsed",
      header: t("keys.lastUsed"),
      cell: (k) => (
        <Text size="sm" c={k.lastUsedAt ? undefined : "dimmed"}>
          {k.lastUsedAt ? formatDateTime(k.lastUsedAt, locale) : t("keys.neverUsed")}
        </Text>
      ),
    },
    {
      id: "status",
      header: t("keys.status"),
      cell: (k) => (
        <Switch
          checked={k.status === "enabled"}
          disabled={!k.canManage || update.isPending}
          label={t(`keys.statusValue.${k.status}`)}
          aria-label={t("keys.toggle", { name: k.name })}
          onChange={(e) =>
            update.mutate(
              { id: k.id, status: e.currentTarget.checked ? "enabled" : "disabled" },
              { onError: (err) => notifyFailure("updateKey", err) },
            )
          }
        />
      ),
    },
    col.actions(
      (k) => t("keys.actions", { name: k.name }),
      (k) =>
        k.canManage
          ? [
              { label: t("keys.rename"), onClick: () => setRenaming(k) },
              { label: t("keys.delete"), danger: true, onClick: () => setDeleting(k) },
            ]
          : [],
    ),
  ];

  const createButton = (variant?: "light") => (
    <Button
      variant={variant}
      leftSection={variant ? undefined : <IconPlus size={16} />}
      onClick={() => setCreating(true)}
      disabled={!canCreate}
    >
      {t("keys.create")}
    </Button>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between">
        {projectId ? (
          <div />
        ) : (
          <Select
            placeholder={t("keys.allProjects")}
            data={projectOptions}
            value={filter}
            onChange={(v) => {
              setFilter(v);
              keys.setPage(1);
            }}
            clearable
            w={240}
            aria-label={t("keys.filterProject")}
          />
        )}
        {readOnly ? null : createButton()}
      </Group>
      {noProject && !readOnly ? (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={16} />} data-testid="keys-no-project">
          {role === "admin" ? (
            <>
              {t("keys.noProjectAdmin")}{" "}
              <Anchor component={Link} to={paths.projects} size="sm">
                {t("keys.goToProjects")}
              </Anchor>
            </>
          ) : (
            t("keys.noProjectMember")
          )}
        </Alert>
      ) : null}
      <DataTable
        columns={columns}
        {...keys.table}
        getRowId={(k) => k.id}
        rowTestId="api-key-row"
        minWidth={900}
        empty={
          <EmptyState
            icon={IconKey}
            title={t("keys.emptyTitle")}
            text={t("keys.emptyText")}
            action={canCreate ? createButton("light") : null}
          />
        }
      />
      <CreateKeyDialog
        opened={creating}
        onClose={() => setCreating(false)}
        orgId={orgId}
        projects={projectOptions}
        fixedProjectId={projectId}
      />
      <RenameKeyDialog orgId={orgId} row={renaming} onClose={() => setRenaming(null)} />
      <DeleteKeyDialog orgId={orgId} row={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
