import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { type OrgGeneral, UpdateOrgRequest } from "@moonport/contracts";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import { useCreateOrg, useRenameOrg } from "../api/queries.ts";
import { CopyField } from "../components/copy-field.tsx";
import { useFailureMessage } from "../components/failure.ts";

/** Name (editable by admins), id, edition facts, and creating another organization. */
export function GeneralPanel({ org, onCreated }: { org: OrgGeneral; onCreated?: (orgId: string) => void }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const fieldMessage = useFieldMessage();
  const applyApiError = useApplyApiError();
  const failure = useFailureMessage();
  const rename = useRenameOrg(org.id);
  const [formError, setFormError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const [creating, setCreating] = useState(false);
  const form = useForm<{ name: string }>({ resolver: zodResolver(UpdateOrgRequest), values: { name: org.name } });
  const isAdmin = org.role === "admin";
  const submit = form.handleSubmit(async (values) => {
    setSaved(false);
    try {
      await rename.mutateAsync(values.name);
      setFormError(undefined);
      setSaved(true);
    } catch (err) {
      setFormError(applyApiError(err, form.setError, ["name"] as const, () => failure("updateOrg", err)));
    }
  });
  return (
    <Stack gap="lg" maw={640}>
      <Card withBorder padding="lg">
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t("general.name")}
              withAsterisk
              readOnly={!isAdmin}
              description={isAdmin ? undefined : t("general.adminOnly")}
              {...form.register("name")}
              error={fieldMessage(form.formState.errors.name?.message)}
            />
            <div>
              <Text size="sm" fw={500} mb={4}>
                {t("general.id")}
              </Text>
              <CopyField value={org.id} />
            </div>
            <Group gap="xl">
              <div>
                <Text size="xs" c="dimmed">
                  {t("general.currency")}
                </Text>
                <Text size="sm">{org.currency}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  {t("general.timeZone")}
                </Text>
                <Text size="sm">{org.timeZone}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  {t("general.createdAt")}
                </Text>
                <Text size="sm">{formatDateTime(org.createdAt, locale)}</Text>
              </div>
            </Group>
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
            {isAdmin ? (
              <Group justify="flex-end">
                <Button type="submit" loading={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
                  {t("common:save")}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </form>
      </Card>
      <Card withBorder padding="lg">
        <Group justify="space-between">
          <div>
            <Title order={5}>{t("general.newOrgTitle")}</Title>
            <Text size="sm" c="dimmed">
              {t("general.newOrgText")}
            </Text>
          </div>
          <Button variant="light" onClick={() => setCreating(true)}>
            {t("general.newOrg")}
          </Button>
        </Group>
      </Card>
      <CreateOrgDialog opened={creating} onClose={() => setCreating(false)} onCreated={onCreated} />
    </Stack>
  );
}

function CreateOrgDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated?: (orgId: string) => void;
}) {
  const { t } = useTranslation("org");
  const fieldMessage = useFieldMessage();
  const applyApiError = useApplyApiError();
  const failure = useFailureMessage();
  const create = useCreateOrg();
  const [formError, setFormError] = useState<string | undefined>();
  const form = useForm<{ name: string }>({ resolver: zodResolver(UpdateOrgRequest), defaultValues: { name: "" } });
  const submit = form.handleSubmit(async (values) => {
    try {
      const res = await create.mutateAsync(values.name);
      form.reset();
      onClose();
      onCreated?.(res.id);
    } catch (err) {
      setFormError(applyApiError(err, form.setError, ["name"] as const, () => failure("createOrg", err)));
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t("general.newOrgTitle")}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t("general.name")}
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
              {t("general.newOrg")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
