import "@mantine/charts/styles.css";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Divider,
  Group,
  Menu,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import {
  type Currency,
  type OrgRole,
  type ProjectDetail,
  type ProjectMemberRow,
  ProjectRole,
  UpdateProjectRequest,
} from "@moonport/contracts";
import { IconArchive, IconChevronLeft, IconDots, IconUserPlus, IconUsers } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import {
  projectBillingQuery,
  projectCandidatesQuery,
  projectMembersQuery,
  projectQuery,
  useAddProjectMember,
  useArchiveProject,
  useRemoveProjectMember,
  useUpdateProject,
  useUpdateProjectMember,
} from "../api/queries.ts";
import { useFailureMessage, useNotifyFailure } from "../components/failure.ts";
import { formatInt, money } from "../components/format.ts";
import { Pager } from "../components/pager.tsx";
import { SpendChart } from "../components/spend-chart.tsx";
import { EmptyState, LoadError, LoadingBlock } from "../components/states.tsx";
import { ApiKeysPanel } from "./api-keys-panel.tsx";

export const PROJECT_TABS = ["overview", "settings", "members", "api-keys", "billing"] as const;
export type ProjectTab = (typeof PROJECT_TABS)[number];

/** One project: overview, settings (with archive), members, API keys, billing. */
export function ProjectScreen({
  orgId,
  orgRole,
  currency,
  projectId,
  tab,
  onTab,
}: {
  orgId: string;
  orgRole: OrgRole;
  currency: Currency;
  projectId: string;
  tab: ProjectTab;
  onTab: (tab: ProjectTab) => void;
}) {
  const { t } = useTranslation("org");
  const project = useQuery(projectQuery(orgId, projectId));
  if (project.isPending) return <LoadingBlock rows={6} />;
  if (project.isError) return <LoadError error={project.error} onRetry={() => project.refetch()} />;
  const p = project.data.project;
  const archived = p.status === "archived";
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Anchor component={Link} to="/console/projects" size="sm">
          <Group gap={4}>
            <IconChevronLeft size={14} />
            {t("projects.back")}
          </Group>
        </Anchor>
        <Group gap="sm">
          <Title order={2}>{p.name}</Title>
          <Badge variant="light" color={archived ? "gray" : "teal"}>
            {t(`projects.status.${p.status}`)}
          </Badge>
          <Badge variant="outline" color="gray">
            {t("projects.yourRole", { role: t(`roles.${p.role}`) })}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {p.description || t("projects.noDescription")}
        </Text>
      </Stack>
      {archived ? (
        <Alert color="gray" variant="light" icon={<IconArchive size={16} />} data-testid="archived-banner">
          {t("projects.archivedBanner", { date: p.archivedAt ? p.archivedAt.slice(0, 10) : "" })}
        </Alert>
      ) : null}
      <Tabs value={tab} onChange={(v) => v && onTab(v as ProjectTab)} keepMounted={false}>
        <Tabs.List>
          {PROJECT_TABS.map((x) => (
            <Tabs.Tab key={x} value={x}>
              {t(`projects.tab.${x}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="overview" pt="lg">
          <ProjectOverviewPanel data={project.data} currency={currency} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="lg">
          <ProjectSettingsPanel orgId={orgId} orgRole={orgRole} project={p} currency={currency} />
        </Tabs.Panel>
        <Tabs.Panel value="members" pt="lg">
          <ProjectMembersPanel orgId={orgId} project={p} />
        </Tabs.Panel>
        <Tabs.Panel value="api-keys" pt="lg">
          <ApiKeysPanel orgId={orgId} role={orgRole} projectId={p.id} readOnly={archived} />
        </Tabs.Panel>
        <Tabs.Panel value="billing" pt="lg">
          <ProjectBillingPanel orgId={orgId} projectId={p.id} currency={currency} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function ProjectOverviewPanel({
  data,
  currency,
}: {
  data: {
    spend: { today: string; month: string; daily: { label: string; amount: string }[] };
    keys: { enabled: number; total: number };
    members: number;
  };
  currency: Currency;
}) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const stats = [
    { label: t("projects.spendToday"), value: money(data.spend.today, currency) },
    { label: t("projects.spendMonth"), value: money(data.spend.month, currency) },
    {
      label: t("projects.keysEnabled"),
      value: `${formatInt(data.keys.enabled, locale)} / ${formatInt(data.keys.total, locale)}`,
    },
    { label: t("projects.membersCount"), value: formatInt(data.members, locale) },
  ];
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        {stats.map((s) => (
          <Card withBorder padding="md" key={s.label}>
            <Text size="sm" c="dimmed">
              {s.label}
            </Text>
            <Title order={3} mt={4}>
              {s.value}
            </Title>
          </Card>
        ))}
      </SimpleGrid>
      <Card withBorder padding="lg">
        <Title order={5} mb="md">
          {t("overview.dailySpend")}
        </Title>
        {BigInt(data.spend.month) > 0n ? (
          <SpendChart series={data.spend.daily} currency={currency} label={t("overview.spend")} />
        ) : (
          <Text size="sm" c="dimmed" ta="center" py={48}>
            {t("overview.noSpend")}
          </Text>
        )}
      </Card>
    </Stack>
  );
}

type SettingsValues = {
  name: string;
  description: string;
  monthlyBudget: number | null;
  dailyBudget: number | null;
  monthlyAlert: number | null;
  dailyAlert: number | null;
  tpmLimit: number | null;
};
const AMOUNT_FIELDS = ["monthlyBudget", "dailyBudget", "monthlyAlert", "dailyAlert"] as const;

function ProjectSettingsPanel({
  orgId,
  orgRole,
  project,
  currency,
}: {
  orgId: string;
  orgRole: OrgRole;
  project: ProjectDetail;
  currency: Currency;
}) {
  const { t } = useTranslation("org");
  const fieldMessage = useFieldMessage();
  const applyApiError = useApplyApiError();
  const failure = useFailureMessage();
  const update = useUpdateProject(orgId, project.id);
  const [formError, setFormError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const editable = project.role === "admin" && project.status === "active";
  const form = useForm<SettingsValues>({
    resolver: zodResolver(UpdateProjectRequest) as never,
    values: { name: project.name, description: project.description, ...project.settings },
  });
  const submit = form.handleSubmit(async (values) => {
    setSaved(false);
    try {
      await update.mutateAsync(values);
      setFormError(undefined);
      setSaved(true);
    } catch (err) {
      setFormError(
        applyApiError(err, form.setError, ["name", "description", ...AMOUNT_FIELDS, "tpmLimit"] as const, () =>
          failure("updateProject", err),
        ),
      );
    }
  });
  const symbol = currency === "CNY" ? "¥" : "$";
  return (
    <Stack gap="lg" maw={720}>
      <Card withBorder padding="lg">
        <form onSubmit={submit} noValidate>
          <fieldset disabled={!editable || form.formState.isSubmitting} style={{ border: 0, padding: 0, margin: 0 }}>
            <Stack>
              {!editable && project.status === "active" ? (
                <Text size="sm" c="dimmed">
                  {t("projects.settingsReadOnly")}
                </Text>
              ) : null}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t("projects.name")}
                  description={t("projects.nameHint")}
                  withAsterisk
                  {...form.register("name")}
                  error={fieldMessage(form.formState.errors.name?.message)}
                />
                <TextInput
                  label={t("projects.description")}
                  description={t("projects.descriptionHint")}
                  {...form.register("description")}
                  error={fieldMessage(form.formState.errors.description?.message)}
                />
              </SimpleGrid>
              <Divider label={t("projects.budgets")} labelPosition="left" />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {AMOUNT_FIELDS.map((f) => (
                  <Controller
                    key={f}
                    control={form.control}
                    name={f}
                    render={({ field }) => (
                      <NumberInput
                        label={t(`projects.field.${f}`)}
                        description={t("projects.amountHint")}
                        leftSection={symbol}
                        allowDecimal={false}
                        allowNegative={false}
                        placeholder={t("projects.none")}
                        value={field.value ?? ""}
                        onChange={(v) => field.onChange(v === "" ? null : Number(v))}
                        error={fieldMessage(form.formState.errors[f]?.message)}
                        data-testid={`field-${f}`}
                      />
                    )}
                  />
                ))}
              </SimpleGrid>
              <Divider label={t("projects.rateLimit")} labelPosition="left" />
              <Controller
                control={form.control}
                name="tpmLimit"
                render={({ field }) => (
                  <NumberInput
                    label={t("projects.field.tpmLimit")}
                    description={t("projects.tpmHint", { max: project.orgTpm.toLocaleString() })}
                    allowDecimal={false}
                    allowNegative={false}
                    placeholder={t("projects.tpmDefault", { max: project.orgTpm.toLocaleString() })}
                    value={field.value ?? ""}
                    onChange={(v) => field.onChange(v === "" ? null : Number(v))}
                    error={fieldMessage(form.formState.errors.tpmLimit?.message)}
                    maw={340}
                  />
                )}
              />
              {formError ? (
                <Alert color="red" variant="light">
                  {formError}
                </Alert>
              ) : null}
              {saved ? (
                <Alert color="teal" variant="light">
                  {t("general.saved")}
                </Alert>
              ) : null}
              {editable ? (
                <Group justify="flex-end">
                  <Button type="submit" loading={form.formState.isSubmitting}>
                    {t("common:save")}
                  </Button>
                </Group>
              ) : null}
            </Stack>
          </fieldset>
        </form>
      </Card>
      {orgRole === "admin" && project.status === "active" && !project.isDefault ? (
        <Card withBorder padding="lg" style={{ borderColor: "var(--mantine-color-red-5)" }}>
          <Group justify="space-between">
            <div>
              <Title order={5}>{t("projects.archiveTitle")}</Title>
              <Text size="sm" c="dimmed">
                {t("projects.archiveText")}
              </Text>
            </div>
            <Button color="red" variant="light" onClick={() => setArchiving(true)}>
              {t("projects.archive")}
            </Button>
          </Group>
        </Card>
      ) : null}
      <ArchiveDialog orgId={orgId} project={project} opened={archiving} onClose={() => setArchiving(false)} />
    </Stack>
  );
}

function ArchiveDialog({
  orgId,
  project,
  opened,
  onClose,
}: {
  orgId: string;
  project: ProjectDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("org");
  const archive = useArchiveProject(orgId, project.id);
  const failure = useFailureMessage();
  const [typed, setTyped] = useState("");
  const fieldErr =
    archive.error && "details" in archive.error
      ? (archive.error as { details: { path: string; message: string }[] }).details.find(
          (d) => d.path === "confirmName",
        )
      : undefined;
  const close = () => {
    setTyped("");
    archive.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={t("projects.archiveTitle")}>
      <Stack>
        <Alert color="red" variant="light" icon={<IconArchive size={16} />}>
          {t("projects.archiveWarning")}
        </Alert>
        <TextInput
          label={t("projects.archiveConfirmLabel", { name: project.name })}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          error={fieldErr?.message}
          data-testid="archive-confirm-input"
        />
        {archive.isError && !fieldErr ? (
          <Alert color="red" variant="light">
            {failure("archiveProject", archive.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t("common:cancel")}
          </Button>
          <Button
            color="red"
            disabled={typed !== project.name}
            loading={archive.isPending}
            onClick={() => archive.mutate(typed, { onSuccess: close })}
          >
            {t("projects.archiveConfirm")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const PAGE_SIZE = 10;

function ProjectMembersPanel({ orgId, project }: { orgId: string; project: ProjectDetail }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const members = useQuery(projectMembersQuery(orgId, project.id, page, PAGE_SIZE));
  const [adding, setAdding] = useState(false);
  const updateRole = useUpdateProjectMember(orgId, project.id);
  const remove = useRemoveProjectMember(orgId, project.id);
  const notifyFailure = useNotifyFailure();
  const canManage = project.role === "admin" && project.status === "active";
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
      {members.isPending ? (
        <LoadingBlock />
      ) : members.isError ? (
        <LoadError error={members.error} onRetry={() => members.refetch()} />
      ) : members.data.total === 0 ? (
        <EmptyState icon={IconUsers} title={t("projectMembers.emptyTitle")} text={t("projectMembers.emptyText")} />
      ) : (
        <>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("members.name")}</Table.Th>
                <Table.Th>{t("members.phone")}</Table.Th>
                <Table.Th>{t("members.role")}</Table.Th>
                <Table.Th>{t("projectMembers.addedAt")}</Table.Th>
                <Table.Th w={48} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.items.map((m: ProjectMemberRow) => (
                <Table.Tr key={m.userId} data-testid="project-member-row">
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {m.nickname}
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
                    {canManage ? (
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
                          <Menu.Item
                            onClick={() =>
                              updateRole.mutate(
                                { userId: m.userId, role: m.role === "admin" ? "member" : "admin" },
                                { onError: (e) => notifyFailure("editMember", e) },
                              )
                            }
                          >
                            {m.role === "admin" ? t("projectMembers.makeMember") : t("projectMembers.makeAdmin")}
                          </Menu.Item>
                          <Menu.Item
                            color="red"
                            onClick={() =>
                              remove.mutate(m.userId, { onError: (e) => notifyFailure("deleteMember", e) })
                            }
                          >
                            {t("projectMembers.remove")}
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Pager total={members.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} />
        </>
      )}
      {canManage ? (
        <AddProjectMemberDialog orgId={orgId} projectId={project.id} opened={adding} onClose={() => setAdding(false)} />
      ) : null}
    </Stack>
  );
}

function AddProjectMemberDialog({
  orgId,
  projectId,
  opened,
  onClose,
}: {
  orgId: string;
  projectId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("org");
  const candidates = useQuery({ ...projectCandidatesQuery(orgId, projectId), enabled: opened });
  const add = useAddProjectMember(orgId, projectId);
  const failure = useFailureMessage();
  const [userId, setUserId] = useState<string | null>(null);
  const [role, setRole] = useState<"admin" | "member">("member");
  const fieldErr =
    add.error && "details" in add.error
      ? (add.error as { details: { path: string; message: string }[] }).details.find((d) => d.path === "userId")
      : undefined;
  const close = () => {
    setUserId(null);
    add.reset();
    onClose();
  };
  const options = (candidates.data?.items ?? []).map((c) => ({
    value: c.userId,
    label: c.phoneMasked ? `${c.nickname} (${c.phoneMasked})` : c.nickname,
  }));
  return (
    <Modal opened={opened} onClose={close} title={t("projectMembers.addTitle")}>
      <Stack>
        <Text size="sm" c="dimmed">
          {t("projectMembers.addHint")}
        </Text>
        <Select
          label={t("projectMembers.who")}
          data={options}
          value={userId}
          onChange={setUserId}
          searchable
          withAsterisk
          nothingFoundMessage={t("projectMembers.noCandidates")}
          placeholder={candidates.isPending ? t("state.loading") : t("projectMembers.pick")}
          error={fieldErr?.message}
          comboboxProps={{ withinPortal: true }}
          data-testid="project-member-select"
        />
        <Select
          label={t("members.role")}
          data={ProjectRole.options.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
          value={role}
          onChange={(v) => v && setRole(v as "admin" | "member")}
          withAsterisk
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        {add.isError && !fieldErr ? (
          <Alert color="red" variant="light">
            {failure("inviteMember", add.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t("common:cancel")}
          </Button>
          <Button
            disabled={!userId}
            loading={add.isPending}
            onClick={() => userId && add.mutate({ userId, role }, { onSuccess: close })}
          >
            {t("projectMembers.addSubmit")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ProjectBillingPanel({ orgId, projectId, currency }: { orgId: string; projectId: string; currency: Currency }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const now = new Date();
  const months = Array.from({ length: 12 }, (_, i) => {
    const x = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    return `${x.getUTCFullYear()}-${String(x.getUTCMonth() + 1).padStart(2, "0")}`;
  });
  const [month, setMonth] = useState(months[0]!);
  const billing = useQuery(projectBillingQuery(orgId, projectId, month));
  return (
    <Stack gap="lg">
      <Select
        data={months}
        value={month}
        onChange={(v) => v && setMonth(v)}
        w={140}
        allowDeselect={false}
        aria-label={t("consumption.period")}
      />
      {billing.isPending ? (
        <LoadingBlock />
      ) : billing.isError ? (
        <LoadError error={billing.error} onRetry={() => billing.refetch()} />
      ) : BigInt(billing.data.total) === 0n ? (
        <EmptyState title={t("consumption.emptyTitle")} text={t("consumption.emptyText")} />
      ) : (
        <>
          <Card withBorder padding="lg">
            <Text size="sm" c="dimmed">
              {t("consumption.total", { period: billing.data.month })}
            </Text>
            <Title order={2} mb="md">
              {money(billing.data.total, currency)}
            </Title>
            <SpendChart series={billing.data.daily} currency={currency} label={t("overview.spend")} />
          </Card>
          <Card withBorder padding={0}>
            <Table verticalSpacing="sm" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("consumption.dimension.byModel")}</Table.Th>
                  <Table.Th ta="right">{t("projects.requests")}</Table.Th>
                  <Table.Th ta="right">{t("projects.tokens")}</Table.Th>
                  <Table.Th ta="right">{t("consumption.amount")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {billing.data.byModel.map((m) => (
                  <Table.Tr key={m.model}>
                    <Table.Td>{m.model}</Table.Td>
                    <Table.Td ta="right">{formatInt(m.requests, locale)}</Table.Td>
                    <Table.Td ta="right">{formatInt(m.tokens, locale)}</Table.Td>
                    <Table.Td ta="right">{money(m.amount, currency)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        </>
      )}
    </Stack>
  );
}
