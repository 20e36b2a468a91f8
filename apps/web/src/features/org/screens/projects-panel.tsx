import { zodResolver } from "@hookform/resolvers/zod";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { CreateProjectRequest, type OrgRole } from "@moonport/contracts";
import { IconFolder, IconPlus } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import { projectsQuery, useCreateProject } from "../api/queries.ts";
import { useFailureMessage } from "../components/failure.ts";
import { Pager } from "../components/pager.tsx";
import { EmptyState, LoadError, LoadingBlock } from "../components/states.tsx";

const PAGE_SIZE = 10;

/** Projects the caller can see; organization admins create them. */
export function ProjectsPanel({ orgId, role }: { orgId: string; role: OrgRole }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<"all" | "active" | "archived">("all");
  const projects = useQuery(projectsQuery(orgId, page, PAGE_SIZE, status));
  const [creating, setCreating] = useState(false);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <SegmentedControl
          value={status}
          onChange={(v) => {
            setStatus(v as typeof status);
            setPage(1);
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
      {projects.isPending ? (
        <LoadingBlock />
      ) : projects.isError ? (
        <LoadError error={projects.error} onRetry={() => projects.refetch()} />
      ) : projects.data.total === 0 ? (
        <EmptyState
          icon={IconFolder}
          title={t("projects.emptyTitle")}
          text={role === "admin" ? t("projects.emptyTextAdmin") : t("projects.emptyTextMember")}
        />
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("projects.name")}</Table.Th>
                  <Table.Th>{t("projects.description")}</Table.Th>
                  <Table.Th>{t("projects.statusLabel")}</Table.Th>
                  <Table.Th>{t("projects.myRole")}</Table.Th>
                  <Table.Th>{t("projects.createdAt")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {projects.data.items.map((p) => (
                  <Table.Tr key={p.id} data-testid="project-row">
                    <Table.Td>
                      <Group gap={6}>
                        <Anchor component={Link} to={`/console/projects/${p.id}`} fw={500} size="sm">
                          {p.name}
                        </Anchor>
                        {p.isDefault ? (
                          <Badge size="xs" variant="outline">
                            {t("projects.default")}
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={p.description ? undefined : "dimmed"}>
                        {p.description || "—"}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={p.status === "active" ? "teal" : "gray"}>
                        {t(`projects.status.${p.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{t(`roles.${p.role}`)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(p.createdAt, locale)}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager total={projects.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} />
        </>
      )}
      <CreateProjectDialog orgId={orgId} opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

function CreateProjectDialog({ orgId, opened, onClose }: { orgId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation("org");
  const fieldMessage = useFieldMessage();
  const applyApiError = useApplyApiError();
  const failure = useFailureMessage();
  const create = useCreateProject(orgId);
  const [formError, setFormError] = useState<string | undefined>();
  const form = useForm<{ name: string; description: string }>({
    resolver: zodResolver(CreateProjectRequest) as never,
    defaultValues: { name: "", description: "" },
  });
  const close = () => {
    form.reset();
    setFormError(undefined);
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values);
      close();
    } catch (err) {
      setFormError(
        applyApiError(err, form.setError, ["name", "description"] as const, () => failure("createProject", err)),
      );
    }
  });
  return (
    <Modal opened={opened} onClose={close} title={t("projects.createTitle")}>
      <form onSubmit={submit} noValidate>
        <Stack>
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
              {t("projects.createSubmit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
