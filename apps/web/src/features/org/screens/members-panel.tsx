import { zodResolver } from "@hookform/resolvers/zod";
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { InviteMemberRequest, type MemberRow, Nickname, OrgRole } from "@moonport/contracts";
import { IconDots, IconUserPlus, IconUsers } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import {
  membersQuery,
  useInviteMember,
  useRemoveMember,
  useRevokeInvitation,
  useUpdateMember,
} from "../api/queries.ts";
import { CopyField } from "../components/copy-field.tsx";
import { useFailureMessage } from "../components/failure.ts";
import { Pager } from "../components/pager.tsx";
import { EmptyState, LoadError, LoadingBlock } from "../components/states.tsx";

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
      {members.isPending ? (
        <LoadingBlock />
      ) : members.isError ? (
        <LoadError error={members.error} onRetry={() => members.refetch()} />
      ) : members.data.total === 0 ? (
        <EmptyState icon={IconUsers} title={t("members.emptyTitle")} />
      ) : (
        <>
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("members.name")}</Table.Th>
                  <Table.Th>{t("members.userId")}</Table.Th>
                  <Table.Th>{t("members.phone")}</Table.Th>
                  <Table.Th>{t("members.role")}</Table.Th>
                  <Table.Th>{t("members.createdAt")}</Table.Th>
                  <Table.Th>{t("members.status")}</Table.Th>
                  <Table.Th w={48} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.data.items.map((m) => (
                  <Table.Tr key={m.userId ?? m.invitationId} data-testid="member-row">
                    <Table.Td>
                      <Text fw={500} size="sm">
                        {m.nickname}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {m.userId ?? "—"}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{m.phoneMasked ?? "—"}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={m.role === "admin" ? "indigo" : "gray"}>
                        {t(`roles.${m.role}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(m.createdAt, locale)}</Text>
                    </Table.Td>
                    <Table.Td>
                      {m.status === "pending" ? (
                        <Badge color="yellow" variant="light">
                          {t("members.pending")}
                        </Badge>
                      ) : (
                        <Badge color="teal" variant="light">
                          {t("members.joined")}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <ActionIcon
                            variant="subtle"
                            color="gray"
                            aria-label={t("members.actions", { name: m.nickname })}
                          >
                            <IconDots size={16} />
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          {m.status === "joined" ? (
                            <>
                              <Menu.Item onClick={() => setEditing(m)}>{t("members.edit")}</Menu.Item>
                              <Menu.Item color="red" onClick={() => setRemoving(m)}>
                                {t("members.remove")}
                              </Menu.Item>
                            </>
                          ) : (
                            <Menu.Item color="red" onClick={() => setRemoving(m)}>
                              {t("members.revoke")}
                            </Menu.Item>
                          )}
                        </Menu.Dropdown>
                      </Menu>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager total={members.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} />
        </>
      )}
      <InviteDialog orgId={orgId} opened={inviting} onClose={() => setInviting(false)} />
      <EditMemberDialog orgId={orgId} member={editing} onClose={() => setEditing(null)} />
      <RemoveMemberDialog orgId={orgId} member={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

type InviteValues = { phone: string; nickname: string; role: "admin" | "member" | undefined };

function InviteDialog({ orgId, opened, onClose }: { orgId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation("org");
  const fieldMessage = useFieldMessage();
  const applyApiError = useApplyApiError();
  const failure = useFailureMessage();
  const invite = useInviteMember(orgId);
  const [link, setLink] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | undefined>();
  const form = useForm<InviteValues>({
    resolver: zodResolver(InviteMemberRequest) as never,
    defaultValues: { phone: "", nickname: "", role: "member" },
  });
  const close = () => {
    setLink(null);
    setFormError(undefined);
    form.reset();
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const res = await invite.mutateAsync(values as never);
      setLink(`${window.location.origin}${res.path}`);
    } catch (err) {
      setFormError(
        applyApiError(err, form.setError, ["phone", "nickname", "role"] as const, () => failure("inviteMember", err)),
      );
    }
  });
  return (
    <Modal opened={opened} onClose={close} title={link ? t("members.linkTitle") : t("members.inviteTitle")} size="lg">
      {link ? (
        <Stack>
          <Text size="sm">{t("members.linkText")}</Text>
          <CopyField value={link} />
          <Group justify="flex-end">
            <Button onClick={close}>{t("keys.done")}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t("members.phone")}
              placeholder={t("members.phonePlaceholder")}
              withAsterisk
              {...form.register("phone")}
              error={fieldMessage(form.formState.errors.phone?.message)}
            />
            <TextInput
              label={t("members.nickname")}
              description={t("members.nicknameHint")}
              withAsterisk
              {...form.register("nickname")}
              error={fieldMessage(form.formState.errors.nickname?.message)}
            />
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Select
                  label={t("members.role")}
                  withAsterisk
                  data={OrgRole.options.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v ?? undefined)}
                  error={fieldMessage(form.formState.errors.role?.message)}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
            {formError ? (
              <Alert color="red" variant="light">
                {formError}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t("common:cancel")}
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting}>
                {t("members.inviteSubmit")}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

const EditMember = z.object({ nickname: Nickname, role: OrgRole });

function EditMemberDialog({
  orgId,
  member,
  onClose,
}: {
  orgId: string;
  member: MemberRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("org");
  const fieldMessage = useFieldMessage();
  const applyApiError = useApplyApiError();
  const failure = useFailureMessage();
  const update = useUpdateMember(orgId);
  const [formError, setFormError] = useState<string | undefined>();
  const form = useForm<z.input<typeof EditMember>>({
    resolver: zodResolver(EditMember),
    values: { nickname: member?.nickname ?? "", role: member?.role ?? "member" },
  });
  const submit = form.handleSubmit(async (values) => {
    if (!member?.userId) return;
    try {
      await update.mutateAsync({ userId: member.userId, ...values });
      setFormError(undefined);
      onClose();
    } catch (err) {
      setFormError(applyApiError(err, form.setError, ["nickname", "role"] as const, () => failure("editMember", err)));
    }
  });
  return (
    <Modal opened={member !== null} onClose={onClose} title={t("members.editTitle")}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t("members.nickname")}
            withAsterisk
            {...form.register("nickname")}
            error={fieldMessage(form.formState.errors.nickname?.message)}
          />
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <Select
                label={t("members.role")}
                withAsterisk
                data={OrgRole.options.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
                value={field.value}
                onChange={(v) => v && field.onChange(v)}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          {formError ? (
            <Alert color="red" variant="light">
              {formError}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("common:cancel")}
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t("common:save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RemoveMemberDialog({
  orgId,
  member,
  onClose,
}: {
  orgId: string;
  member: MemberRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("org");
  const failure = useFailureMessage();
  const remove = useRemoveMember(orgId);
  const revoke = useRevokeInvitation(orgId);
  const pending = member?.status === "pending";
  const mutation = pending ? revoke : remove;
  const done = () => {
    remove.reset();
    revoke.reset();
    onClose();
  };
  return (
    <Modal
      opened={member !== null}
      onClose={done}
      title={pending ? t("members.revokeTitle") : t("members.removeTitle")}
    >
      <Stack>
        <Text size="sm">
          {pending
            ? t("members.revokeText", { name: member?.nickname ?? "" })
            : t("members.removeText", { name: member?.nickname ?? "" })}
        </Text>
        {mutation.isError ? (
          <Alert color="red" variant="light">
            {failure("deleteMember", mutation.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={done}>
            {t("common:cancel")}
          </Button>
          <Button
            color="red"
            loading={mutation.isPending}
            onClick={() => {
              if (!member) return;
              if (pending && member.invitationId) revoke.mutate(member.invitationId, { onSuccess: done });
              else if (member.userId) remove.mutate(member.userId, { onSuccess: done });
            }}
          >
            {pending ? t("members.revoke") : t("members.remove")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
