import { zodResolver } from "@hookform/resolvers/zod";
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { ApiKeyName, type ApiKeyRow, CreateApiKeyRequest, type OrgRole } from "@moonport/contracts";
import { IconAlertTriangle, IconDots, IconKey, IconPlus } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import { apiKeysQuery, projectsQuery, useCreateApiKey, useDeleteApiKey, useUpdateApiKey } from "../api/queries.ts";
import { useFailureMessage, useNotifyFailure } from "../components/failure.ts";
import { Pager } from "../components/pager.tsx";
import { EmptyState, LoadError, LoadingBlock } from "../components/states.tsx";

const PAGE_SIZE = 10;

/**
 * API keys of the organization (or of one project): list, create (secret shown once), rename, enable/disable,
 * delete. What the list contains is decided by the server's role rules.
 */
export function ApiKeysPanel({
  orgId,
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
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<string | null>(null);
  const effectiveProject = projectId ?? filter ?? undefined;
  const keys = useQuery(apiKeysQuery(orgId, page, PAGE_SIZE, effectiveProject));
  const projects = useQuery(projectsQuery(orgId, 1, 100, "active"));
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<ApiKeyRow | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyRow | null>(null);
  const update = useUpdateApiKey(orgId);
  const notifyFailure = useNotifyFailure();

  const projectOptions = (projects.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }));

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
              setPage(1);
            }}
            clearable
            w={240}
            aria-label={t("keys.filterProject")}
          />
        )}
        {readOnly ? null : (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t("keys.create")}
          </Button>
        )}
      </Group>

      {keys.isPending ? (
        <LoadingBlock />
      ) : keys.isError ? (
        <LoadError error={keys.error} onRetry={() => keys.refetch()} />
      ) : keys.data.total === 0 ? (
        <EmptyState
          icon={IconKey}
          title={t("keys.emptyTitle")}
          text={t("keys.emptyText")}
          action={
            readOnly ? null : (
              <Button variant="light" onClick={() => setCreating(true)}>
                {t("keys.create")}
              </Button>
            )
          }
        />
      ) : (
        <>
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("keys.name")}</Table.Th>
                  <Table.Th>{t("keys.key")}</Table.Th>
                  <Table.Th>{t("keys.project")}</Table.Th>
                  <Table.Th>{t("keys.creator")}</Table.Th>
                  <Table.Th>{t("keys.createdAt")}</Table.Th>
                  <Table.Th>{t("keys.lastUsed")}</Table.Th>
                  <Table.Th>{t("keys.status")}</Table.Th>
                  <Table.Th w={48} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.data.items.map((k) => (
                  <Table.Tr key={k.id} data-testid="api-key-row">
                    <Table.Td>
                      <Text fw={500} size="sm">
                        {k.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {k.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Code style={{ whiteSpace: "nowrap" }}>{k.mask}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6}>
                        <Text size="sm">{k.project.name}</Text>
                        {k.project.status === "archived" ? (
                          <Badge size="xs" color="gray" variant="light">
                            {t("projects.status.archived")}
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{k.creator.nickname ?? t("keys.formerMember")}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(k.createdAt, locale)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={k.lastUsedAt ? undefined : "dimmed"}>
                        {k.lastUsedAt ? formatDateTime(k.lastUsedAt, locale) : t("keys.neverUsed")}
                      </Text>
                    </Table.Td>
                    <Table.Td>
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
                    </Table.Td>
                    <Table.Td>
                      {k.canManage ? (
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon variant="subtle" color="gray" aria-label={t("keys.actions", { name: k.name })}>
                              <IconDots size={16} />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item onClick={() => setRenaming(k)}>{t("keys.rename")}</Menu.Item>
                            <Menu.Item color="red" onClick={() => setDeleting(k)}>
                              {t("keys.delete")}
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager total={keys.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} />
        </>
      )}

      <CreateKeyDialog
        opened={creating}
        onClose={() => setCreating(false)}
        orgId={orgId}
        projects={projectOptions}
        fixedProjectId={projectId}
      />
      <RenameKeyDialog orgId={orgId} apiKey={renaming} onClose={() => setRenaming(null)} />
      <DeleteKeyDialog orgId={orgId} apiKey={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

function CreateKeyDialog({
  opened,
  onClose,
  orgId,
  projects,
  fixedProjectId,
}: {
  opened: boolean;
  onClose: () => void;
  orgId: string;
  projects: { value: string; label: string }[];
  fixedProjectId?: string;
}) {
  const { t } = useTranslation("org");
  const fieldMessage = useFieldMessage();
  const applyApiError = useApplyApiError();
  const failure = useFailureMessage();
  const create = useCreateApiKey(orgId);
  const [secret, setSecret] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | undefined>();
  const form = useForm<{ name: string; projectId: string }>({
    resolver: zodResolver(CreateApiKeyRequest),
    defaultValues: { name: "", projectId: fixedProjectId ?? "" },
  });
  const close = () => {
    setSecret(null);
    setFormError(undefined);
    form.reset({ name: "", projectId: fixedProjectId ?? "" });
    create.reset();
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const res = await create.mutateAsync(values);
      setSecret(res.secret);
    } catch (err) {
      setFormError(applyApiError(err, form.setError, ["name", "projectId"] as const, () => failure("createKey", err)));
    }
  });
  return (
    <Modal opened={opened} onClose={close} title={secret ? t("keys.createdTitle") : t("keys.createTitle")} size="lg">
      {secret ? (
        <SecretReveal secret={secret} onDone={close} />
      ) : (
        <form onSubmit={submit} noValidate>
          <fieldset disabled={form.formState.isSubmitting} style={{ border: 0, padding: 0, margin: 0 }}>
            <Stack>
              <TextInput
                label={t("keys.name")}
                placeholder={t("keys.namePlaceholder")}
                withAsterisk
                maxLength={64}
                {...form.register("name")}
                error={fieldMessage(form.formState.errors.name?.message)}
              />
              {fixedProjectId ? null : (
                <Select
                  label={t("keys.project")}
                  placeholder={t("keys.projectPlaceholder")}
                  data={projects}
                  withAsterisk
                  value={form.watch("projectId") || null}
                  onChange={(v) => form.setValue("projectId", v ?? "", { shouldValidate: form.formState.isSubmitted })}
                  error={fieldMessage(form.formState.errors.projectId?.message)}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
              {formError ? (
                <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />}>
                  {formError}
                </Alert>
              ) : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={close}>
                  {t("common:cancel")}
                </Button>
                <Button type="submit" loading={form.formState.isSubmitting}>
                  {t("keys.createSubmit")}
                </Button>
              </Group>
            </Stack>
          </fieldset>
        </form>
      )}
    </Modal>
  );
}

/** The secret, once: a copy button, the warning, and the §8 message when the browser cannot copy. */
export function SecretReveal({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { t } = useTranslation("org");
  const [copyState, setCopyState] = useState<"idle" | "copied" | "unsupported" | "failed">("idle");
  const copy = async () => {
    if (typeof navigator === "undefined" || !navigator.clipboard?.writeText) {
      setCopyState("unsupported");
      return;
    }
    try {
      await navigator.clipboard.writeText(secret);
      setCopyState("copied");
    } catch {
      setCopyState("failed");
    }
  };
  return (
    <Stack>
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={16} />}>
        {t("keys.onceWarning")}
      </Alert>
      <Group gap="xs" wrap="nowrap" align="stretch">
        <TextInput
          value={secret}
          readOnly
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="api-key-secret"
          aria-label={t("keys.secret")}
        />
        <Button onClick={copy} color={copyState === "copied" ? "teal" : undefined}>
          {copyState === "copied" ? t("common:copied") : t("common:copy")}
        </Button>
      </Group>
      {copyState === "unsupported" || copyState === "failed" ? (
        <Text size="sm" c="red" role="alert">
          {t(copyState === "unsupported" ? "keys.copyUnsupported" : "keys.copyFailed")}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button onClick={onDone}>{t("keys.done")}</Button>
      </Group>
    </Stack>
  );
}

function RenameKeyDialog({ orgId, apiKey, onClose }: { orgId: string; apiKey: ApiKeyRow | null; onClose: () => void }) {
  const { t } = useTranslation("org");
  const fieldMessage = useFieldMessage();
  const applyApiError = useApplyApiError();
  const failure = useFailureMessage();
  const update = useUpdateApiKey(orgId);
  const [formError, setFormError] = useState<string | undefined>();
  const form = useForm<{ name: string }>({
    resolver: zodResolver(z.object({ name: ApiKeyName })),
    values: { name: apiKey?.name ?? "" },
  });
  const submit = form.handleSubmit(async (values) => {
    if (!apiKey) return;
    try {
      await update.mutateAsync({ id: apiKey.id, name: values.name });
      setFormError(undefined);
      onClose();
    } catch (err) {
      setFormError(applyApiError(err, form.setError, ["name"] as const, () => failure("updateKey", err)));
    }
  });
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title={t("keys.renameTitle")}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t("keys.name")}
            withAsterisk
            {...form.register("name")}
            error={fieldMessage(form.formState.errors.name?.message)}
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

function DeleteKeyDialog({ orgId, apiKey, onClose }: { orgId: string; apiKey: ApiKeyRow | null; onClose: () => void }) {
  const { t } = useTranslation("org");
  const remove = useDeleteApiKey(orgId);
  const failure = useFailureMessage();
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title={t("keys.deleteTitle")}>
      <Stack>
        <Text size="sm">{t("keys.deleteText", { name: apiKey?.name ?? "" })}</Text>
        {remove.isError ? (
          <Alert color="red" variant="light">
            {failure("deleteKey", remove.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("common:cancel")}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              apiKey &&
              remove.mutate(apiKey.id, {
                onSuccess: () => {
                  remove.reset();
                  onClose();
                },
              })
            }
          >
            {t("keys.deleteConfirm")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
