import { Anchor, Badge, Button, Group, SegmentedControl, Stack } from "@mantine/core";
import type { OrgRole, ProjectRow } from "@moonport/contracts";
import { IconFolder, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DateTimeCell, TextCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable, usePagedTable } from "../../../components/console-kit/data-table.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { paths } from "../../../lib/paths.ts";
import { projectsQuery } from "../api/get-projects.ts";
import { CreateProjectDialog } from "./create-project-dialog.tsx";

const _PAGE_SIZE = 10;
type Status = "all" | "active" | "archived";

/** Projects the caller can see; organization admins create them. */
export function ProjectsPanel({ orgId, role }: { orgId: string; role: OrgRole }) {
  const { t } = useTranslation("org");
  const [status, setStatus] = useState<Status>("all");
  const projects = usePagedTable((page, pageSize) => projectsQuery(orgId, page, pageSize, status));
  const [creating, setCreating] = useState(false);
  const columns: DataColumn<ProjectRow>[] = [
    {
      id: "name",
      header: t("projects.name"),
      cell: (p) => (
        <Group gap={6} wrap="nowrap">
          <Anchor component={Link} to={paths.project(p.id)} fw={500} size="sm" data-row-link>
            {p.name}
          </Anchor>
          {p.isDefault ? (
            <Badge size="xs" variant="outline">
              {t("projects.default")}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    {
      id: "description",
      header: t("projects.description"),
      cell: (p) => <TextCell>{p.description}</TextCell>,
    },
    {
      id: "status",
      header: t("projects.statusLabel"),
      cell: (p) => (
        <Badge variant="light" color={p.status === "active" ? "teal" : "gray"}>
          {t(`projects.status.${p.status}`)}
        </Badge>
      ),
    },
    { id: "role", header: t("projects.myRole"), cell: (p) => <TextCell>{t(`roles.${p.role}`)}</TextCell> },
    {
      id: "createdAt",
      header: t("projects.createdAt"),
      cell: (p) => <DateTimeCell iso={p.createdAt} />,
    },
  ];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <SegmentedControl
          value={status}
          onChange={(v) => {
            setStatus(v as Status);
            projects.setPage(1);
          }}
          data={[
            { value: "all", label: t("projects.filter.all") },
            { value: "active", label: t("projects.status.active") },
            { value: "archived", label: t("projects.status.archived") },
          ]}
        />
        {role === "admin" ? (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t("projects.create")}
          </Button>
        ) : null}
      </Group>
      <DataTable
        columns={columns}
        {...projects.table}
        getRowId={(p) => p.id}
        rowTestId="project-row"
        linkedRows
        minWidth={640}
        empty={
          <EmptyState
            icon={IconFolder}
            title={t("projects.emptyTitle")}
            text={role === "admin" ? t("projects.emptyTextAdmin") : t("projects.emptyTextMember")}
          />
        }
      />
      <CreateProjectDialog orgId={orgId} opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
