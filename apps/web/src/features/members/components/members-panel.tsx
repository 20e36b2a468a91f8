import { Badge, Button, Group, Stack, Text } from "@mantine/core";
import type { MemberRow } from "@moonport/contracts";
import { IconUserPlus, IconUsers } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { columns as col } from "../../../components/console-kit/columns.tsx";
import { type DataColumn, DataTable, usePagedTable } from "../../../components/console-kit/data-table.tsx";
import { useNotifyFailure } from "../../../components/console-kit/failure.ts";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { membersQuery } from "../api/get-members.ts";
import { useResendInvitation } from "../api/resend-invitation.ts";
import { EditMemberDialog } from "./edit-member-dialog.tsx";
import { InviteDialog } from "./invite-dialog.tsx";
import { InviteLinkDialog } from "./invite-link-dialog.tsx";
import { RemoveMemberDialog } from "./remove-member-dialog.tsx";

const _PAGE_SIZE = 10;

/** Organization members and pending invitations (organization admins). */
export function MembersPanel({ orgId }: { orgId: string }) {
  const { t } = useTranslation("org");
  const members = usePagedTable((page, pageSize) => membersQuery(orgId, page, pageSize));
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<MemberRow | null>(null);
  const [removing, setRemoving] = useState<MemberRow | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const resend = useResendInvitation(orgId);
  const notifyFailure = useNotifyFailure();
  const resendLink = (m: MemberRow) =>
    m.invitationId &&
    resend.mutate(m.invitationId, {
      onSuccess: (res) => setLink(`${window.location.origin}${res.path}`),
      onError: (e) => notifyFailure("inviteMember", e),
    });
  const columns: DataColumn<MemberRow>[] = [
    col.strong("name", t("members.name"), (m) => m.nickname),
    {
      id: "userId",
      header: t("members.userId"),
      cell: (m) => (
        <Text size="xs" c="dimmed" ff="monospace">
          {m.userId ?? "—"}
        </Text>
      ),
    },
    col.text("phone", t("members.phone"), (m) => m.phoneMasked),
    col.role(t("members.role"), (m) => m.role),
    col.dateTime("createdAt", t("members.createdAt"), (m) => m.createdAt),
    {
      id: "status",
      header: t("members.status"),
      cell: (m) => (
        <Badge color={m.status === "pending" ? "yellow" : "teal"} variant="light">
          {t(m.status === "pending" ? "members.pending" : "members.joined")}
        </Badge>
      ),
    },
    col.actions(
      (m) => t("members.actions", { name: m.nickname }),
      (m) =>
        m.status === "joined"
          ? [
              { label: t("members.edit"), onClick: () => setEditing(m) },
              { label: t("members.remove"), danger: true, onClick: () => setRemoving(m) },
            ]
          : [
              { label: t("members.resend"), onClick: () => resendLink(m) },
              { label: t("members.revoke"), danger: true, onClick: () => setRemoving(m) },
            ],
    ),
  ];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t("members.intro")}
        </Text>
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setInviting(true)}>
          {t("members.invite")}
        </Button>
      </Group>
      <DataTable
        columns={columns}
        {...members.table}
        getRowId={(m) => m.userId ?? m.invitationId ?? m.nickname}
        rowTestId="member-row"
        minWidth={760}
        empty={<EmptyState icon={IconUsers} title={t("members.emptyTitle")} />}
      />
      <InviteDialog orgId={orgId} opened={inviting} onClose={() => setInviting(false)} />
      <EditMemberDialog orgId={orgId} row={editing} onClose={() => setEditing(null)} />
      <RemoveMemberDialog orgId={orgId} row={removing} onClose={() => setRemoving(null)} />
      <InviteLinkDialog link={link} resent onClose={() => setLink(null)} />
    </Stack>
  );
}
