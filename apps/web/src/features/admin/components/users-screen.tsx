import { Anchor, Badge, Button, Group, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import type { AdminUserRow } from "@moonport/contracts";
import { IconArrowLeft, IconSearch } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DateTimeCell, TextCell } from "../../../components/console-kit/cells.tsx";
import { type DataColumn, DataTable, pagerOf } from "../../../components/console-kit/data-table.tsx";
import { ConfirmDialog } from "../../../components/console-kit/form-dialog.tsx";
import { EmptyState, LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../lib/paths.ts";
import { userQuery, usersQuery, useUserAction } from "../api/admin.ts";
import { BadgeList, DetailCard, DetailTable, roleColor } from "./detail-parts.tsx";
import { StatCard } from "./stat-card.tsx";
import { useSearchPage } from "./use-search-page.ts";

function StatusBadge({ user }: { user: AdminUserRow }) {
  const { t } = useTranslation("admin");
  return user.disabledAt ? (
    <Badge color="red" variant="light" data-testid="admin-user-status">
      {t("users.disabled")}
    </Badge>
  ) : (
    <Badge color="green" variant="light" data-testid="admin-user-status">
      {t("users.active")}
    </Badge>
  );
}

/** Back office → Users: search by username, id or phone. */
export function UsersScreen() {
  const { t } = useTranslation("admin");
  const { search, setSearch, q, page, setPage } = useSearchPage();
  const list = useQuery(usersQuery(q, page));
  const columns: DataColumn<AdminUserRow>[] = [
    {
      id: "username",
      header: t("users.username"),
      cell: (r) => (
        <Anchor component={Link} to={paths.adminUser(r.id)} size="sm" data-testid="admin-user-link">
          {r.username ?? r.id}
        </Anchor>
      ),
    },
    { id: "phone", header: t("users.phone"), cell: (r) => <TextCell>{r.phoneMasked}</TextCell> },
    { id: "role", header: t("users.role"), cell: (r) => t(`users.${r.role}`) },
    { id: "orgs", header: t("users.organizations"), align: "right", cell: (r) => r.organizations },
    { id: "sessions", header: t("users.sessions"), align: "right", cell: (r) => r.activeSessions },
    { id: "status", header: t("users.status"), cell: (r) => <StatusBadge user={r} /> },
    { id: "created", header: t("users.created"), cell: (r) => <DateTimeCell iso={r.createdAt} /> },
  ];
  return (
    <>
      <PageHeader title={t("users.title")} description={t("users.description")} />
      <TextInput
        placeholder={t("users.search")}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={420}
        mb="md"
        data-testid="admin-user-search"
      />
      <DataTable
        columns={columns}
        rows={list.data?.items}
        query={list}
        getRowId={(r) => r.id}
        rowTestId="admin-user-row"
        minWidth={760}
        empty={<EmptyState title={t("users.empty")} />}
        pagination={pagerOf(list.data, page, setPage)}
      />
    </>
  );
}

type Action = "disable" | "enable" | "revoke-sessions";

/** Back office → one user: memberships and live sessions; disable, enable, sign out everywhere. */
export function UserScreen({ userId }: { userId: string }) {
  const { t } = useTranslation("admin");
  const q = useQuery(userQuery(userId));
  const act = useUserAction(userId);
  const [confirm, setConfirm] = useState<Action | null>(null);
  if (q.isPending) return <LoadingBlock rows={6} />;
  if (q.isError) return <LoadError error={q.error} onRetry={() => q.refetch()} />;
  const u = q.data;
  const name = u.username ?? u.id;
  return (
    <>
      <Anchor component={Link} to={paths.adminUsers} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} />
          {t("users.back")}
        </Group>
      </Anchor>
      <PageHeader
        title={name}
        description={u.id}
        actions={
          u.role === "operator" ? null : (
            <Group gap="xs">
              <Button variant="default" onClick={() => setConfirm("revoke-sessions")} data-testid="admin-revoke">
                {t("users.revoke")}
              </Button>
              {u.disabledAt ? (
                <Button color="teal" onClick={() => setConfirm("enable")} data-testid="admin-enable">
                  {t("users.enable")}
                </Button>
              ) : (
                <Button color="red" variant="light" onClick={() => setConfirm("disable")} data-testid="admin-disable">
                  {t("users.disable")}
                </Button>
              )}
            </Group>
          )
        }
      />
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <StatCard label={t("users.role")} value={t(`users.${u.role}`)} />
          <StatCard label={t("users.status")} value={u.disabledAt ? t("users.disabled") : t("users.active")} />
          <StatCard label={t("users.organizations")} value={String(u.organizations)} />
          <StatCard label={t("users.sessions")} value={String(u.activeSessions)} testId="admin-user-sessions" />
        </SimpleGrid>
        <DetailCard title={t("users.memberships")}>
          <BadgeList
            rows={u.memberships.map((m) => ({
              key: m.orgId,
              label: m.name,
              to: paths.adminOrganization(m.orgId),
              badge: m.role,
              color: roleColor(m.role),
            }))}
          />
        </DetailCard>
        <DetailCard title={t("users.sessionList")} empty={u.sessions.length === 0 ? t("users.noSessions") : null}>
          <DetailTable
            rows={u.sessions}
            rowKey={(s) => s.id}
            columns={[
              { header: t("users.ip"), cell: (s) => s.ip ?? "—" },
              {
                header: t("users.device"),
                cell: (s) => (
                  <Text size="sm" lineClamp={1} maw={360}>
                    {s.userAgent ?? "—"}
                  </Text>
                ),
              },
              { header: t("users.lastSeen"), cell: (s) => <DateTimeCell iso={s.lastSeenAt} /> },
            ]}
          />
        </DetailCard>
      </Stack>
      <ConfirmDialog
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm === "revoke-sessions" ? t("users.revoke") : t(`users.${confirm ?? "disable"}`)}
        confirmLabel={confirm === "revoke-sessions" ? t("users.revoke") : t(`users.${confirm ?? "disable"}`)}
        danger={confirm !== "enable"}
        pending={act.isPending}
        error={act.error ? t("users.failed", { reason: act.error.message }) : undefined}
        onConfirm={() => confirm && act.mutate(confirm, { onSuccess: () => setConfirm(null) })}
      >
        <Text size="sm">
          {confirm === "revoke-sessions"
            ? t("users.revokeText", { name })
            : confirm === "disable"
              ? t("users.disableText", { name })
              : t("users.enable")}
        </Text>
      </ConfirmDialog>
    </>
  );
}
