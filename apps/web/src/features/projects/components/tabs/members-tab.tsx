import { Badge, Button, Group, Stack, Text } from "@mantine/core";
import type { ProjectDetail, ProjectMemberRow } from "@moonport/contracts";
import { IconUserPlus, IconUsers } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DataColumn, DataTable } from "../../../../components/console-kit/data-table.tsx";
import { useNotifyFailure } from "../../../../components/console-kit/failure.ts";
import { RowActions } from "../../../../components/console-kit/row-actions.tsx";
import { EmptyState } from "../../../../components/console-kit/states.tsx";
import { useLocale } from "../../../../i18n/index.ts";
import { formatDateTime } from "../../../../lib/format.ts";
import { projectMembersQuery } from "../../api/get-project-members.ts";
import { useRemoveProjectMember } from "../../api/remove-project-member.ts";
import { useUpdateProjectMember } from "../../api/update-project-member.ts";
import { AddProjectMemberDialog } from "../add-project-member-dialog.tsx";

const PAGE_SIZE = 10;

/** The project's members; project admins add organization members, change roles and remove them. */
export function MembersTab({ orgId, project }: { orgId: string; project: ProjectDetail }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const members = useQuery(projectMembersQuery(orgId, project.id, page, PAGE_SIZE));
  const [adding, setAdding] = useState(false);
  const updateRole = useUpdateProjectMember(orgId, project.id);
  const remove = useRemoveProjectMember(orgId, project.id);
  const notifyFailure = useNotifyFailure();
  const canManage = project.role === "admin" && project.status === "active";
  const columns: DataColumn<ProjectMemberRow>[] = [
    {
      id: "name",
      header: t("members.name"),
      cell: (m) => (
        <Text size="sm" fw={500}>
          {m.nickname}
        </Text>
      ),
    },
    { id: "phone", header: t("members.phone"), cell: (m) => <Text size="sm">{m.phoneMasked ?? "—"}</Text> },
    {
      id: "role",
      header: t("members.role"),
      cell: (m) => (
        <Badge variant="light" color={m.role === "admin" ? "indigo" : "gray"}>
          {t(`roles.${m.role}`)}
        </Badge>
      ),
    },
    {
      id: "addedAt",
      header: t("projectMembers.addedAt"),
      cell: (m) => <Text size="sm">{formatDateTime(m.createdAt, locale)}</Text>,
    },
    {
      id: "actions",
      header: null,
      width: 48,
      cell: (m) => (
        <RowActions
          label={t("members.actions", { name: m.nickname })}
          actions={
            canManage
              ? [
                  {
                    label: m.role === "admin" ? t("projectMembers.makeMember") : t("projectMembers.makeAdmin"),
                    onClick: () =>
                      updateRole.mutate(
                        { userId: m.userId, role: m.role === "admin" ? "member" : "admin" },
                        { onError: (e) => notifyFailure("editMember", e) },
                      ),
                  },
                  {
                    label: t("projectMembers.remove"),
                    danger: true,
                    onClick: () => remove.mutate(m.userId, { onError: (e) => notifyFailure("deleteMember", e) }),
                  },
                ]
              : []
          }
        />
      ),
    },
  ];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t("projectMembers.intro")}
        </Text>
        {canManage ? (
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
            {t("projectMembers.add")}
          </Button>
        ) : null}
      </Group>
      <DataTable
        columns={columns}
        rows={members.data?.items}
        query={members}
        getRowId={(m) => m.userId}
        rowTestId="project-member-row"
        minWidth={560}
        pagination={
          members.data ? { page, pageSize: PAGE_SIZE, total: members.data.total, onChange: setPage } : undefined
        }
        empty={
          <EmptyState icon={IconUsers} title={t("projectMembers.emptyTitle")} text={t("projectMembers.emptyText")} />
        }
      />
      {canManage ? (
        <AddProjectMemberDialog orgId={orgId} projectId={project.id} opened={adding} onClose={() => setAdding(false)} />
      ) : null}
    </Stack>
  );
}
