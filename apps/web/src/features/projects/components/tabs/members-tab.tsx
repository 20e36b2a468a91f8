import { Button, Group, Stack, Text } from "@mantine/core";
import type { ProjectDetail, ProjectMemberRow } from "@moonport/contracts";
import { IconUserPlus, IconUsers } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { columns as col } from "../../../../components/console-kit/columns.tsx";
import { type DataColumn, DataTable, usePagedTable } from "../../../../components/console-kit/data-table.tsx";
import { useNotifyFailure } from "../../../../components/console-kit/failure.ts";
import { EmptyState } from "../../../../components/console-kit/states.tsx";
import { projectMembersQuery } from "../../api/get-project-members.ts";
import { useRemoveProjectMember } from "../../api/remove-project-member.ts";
import { useUpdateProjectMember } from "../../api/update-project-member.ts";
import { AddProjectMemberDialog } from "../add-project-member-dialog.tsx";

const _PAGE_SIZE = 10;

/** The project's members; project admins add organization members, change roles and remove them. */
export function MembersTab({ orgId, project }: { orgId: string; project: ProjectDetail }) {
  const { t } = useTranslation("org");
  const members = usePagedTable((page, pageSize) => projectMembersQuery(orgId, project.id, page, pageSize));
  const [adding, setAdding] = useState(false);
  const updateRole = useUpdateProjectMember(orgId, project.id);
  const remove = useRemoveProjectMember(orgId, project.id);
  const notifyFailure = useNotifyFailure();
  const canManage = project.role === "admin" && project.status === "active";
  const columns: DataColumn<ProjectMemberRow>[] = [
    col.strong("name", t("members.name"), (m) => m.nickname),
    col.text("phone", t("members.phone"), (m) => m.phoneMasked),
    col.role(t("members.role"), (m) => m.role),
    col.dateTime("addedAt", t("projectMembers.addedAt"), (m) => m.createdAt),
    col.actions(
      (m) => t("members.actions", { name: m.nickname }),
      (m) =>
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
          : [],
    ),
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
        {...members.table}
        getRowId={(m) => m.userId}
        rowTestId="project-member-row"
        minWidth={560}
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
