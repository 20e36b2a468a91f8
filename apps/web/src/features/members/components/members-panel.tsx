import { Badge, Button, Group, Stack, Text } from "@mantine/core";
import type { MemberRow } from "@moonport/contracts";
import { IconUserPlus, IconUsers } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DataColumn, DataTable } from "../../../components/console-kit/data-table.tsx";
import { useNotifyFailure } from "../../../components/console-kit/failure.ts";
import { RowActions } from "../../../components/console-kit/row-actions.tsx";
import { EmptyState } from "../../../components/console-kit/states.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { membersQuery } from "../api/get-members.ts";
import { useResendInvitation } from "../api/resend-invitation.ts";
import { EditMemberDialog } from "./edit-member-dialog.tsx";
import { InviteDialog } from "./invite-dialog.tsx";
import { InviteLinkDialog } from "./invite-link-dialog.tsx";
import { RemoveMemberDialog } from "./remove-member-dialog.tsx";

const PAGE_SIZE = 10;

/** Organization members and pending invitations (organization admins). */
export function MembersPanel({ orgId }: { orgId: string }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const members = useQuery(membersQuery(orgId, page, PAGE_SIZE));
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
    {
      id: "name",
      header: t("members.name"),
      cell: (m) => (
        <Text fw={500} size="sm">
          {m.nickname}
        </Text>
      ),
    },
    {
      id: "userId",
      header: t("members.userId"),
      cell: (m) => (
        <Text size="xs" c="dimmed" ff="monospace">
          {m.userId ?? "—"}
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
      id: "createdAt",
      header: t("members.createdAt"),
      cell: (m) => <Text size="sm">{formatDateTime(m.createdAt, locale)}</Text>,
    },
    {
      id: "status",
      header: t("members.status"),
      cell: (m) =>
        m.status === "pending" ? (
          <Badge color="yellow" variant="light">
            {t("members.pending")}
          </Badge>
        ) : (
          <Badge color="teal" variant="light">
            {t("members.joined")}
          </Badge>
        ),
    },
    {
      id: "actions",
      header: null,
      width: 48,
      cell: (m) => (
        <RowActions
          label={t("members.actions", { name: m.nickname })}
          actions={
            m.status === "joined"
              ? [
                  { label: t("members.edit"), onClick: () => setEditing(m) },
                  { label: t("members.remove"), danger: true, onClick: () => setRemoving(m) },
                ]
              : [
                  { label: t("members.resend"), onClick: () => resendLink(m) },
                  { label: t("members.revoke"), danger: true, onClick: () => setRemoving(m) },
                ]
          }
        />
      ),
    },
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
        rows={members.data?.items}
        query={members}
        getRowId={(m) => m.userId ?? m.invitationId ?? m.nickname}
        rowTestId="member-row"
        minWidth={760}
        pagination={
          members.data ? { page, pageSize: PAGE_SIZE, total: members.data.total, onChange: setPage } : undefined
        }
        empty={<EmptyState icon={IconUsers} title={t("members.emptyTitle")} />}
      />
      <InviteDialog orgId={orgId} opened={inviting} onClose={() => setInviting(false)} />
      <EditMemberDialog orgId={orgId} member={editing} onClose={() => setEditing(null)} />
      <RemoveMemberDialog orgId={orgId} member={removing} onClose={() => setRemoving(null)} />
      <InviteLinkDialog link={link} resent onClose={() => setLink(null)} />
    </Stack>
  );
}
