import { Button, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { type OrgGeneral, UpdateOrgRequest } from "@moonport/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyField } from "../../../components/console-kit/copy-field.tsx";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormFooter } from "../../../components/console-kit/form-footer.tsx";
import { timeZoneName } from "../../../components/console-kit/time-zone.ts";
import { useZodForm } from "../../../components/console-kit/use-zod-form.ts";
import { useLocale } from "../../../i18n/index.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useRenameOrg } from "../api/rename-org.ts";
import { CreateOrgDialog } from "./create-org-dialog.tsx";

/** Name (editable by admins), id, edition facts, and creating another organization. */
export function GeneralPanel({ org, onCreated }: { org: OrgGeneral; onCreated?: (orgId: string) => void }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const failure = useFailureMessage();
  const rename = useRenameOrg(org.id);
  const [saved, setSaved] = useState(false);
  const [creating, setCreating] = useState(false);
  const { form, field, onSubmit, formError } = useZodForm(UpdateOrgRequest, { values: { name: org.name } });
  const isAdmin = org.role === "admin";
  const submit = onSubmit(
    async (values) => {
      setSaved(false);
      await rename.mutateAsync(values.name);
      setSaved(true);
    },
    (reason) => failure("updateOrg", reason),
  );
  const facts = [
    { label: t("general.currency"), value: org.currency },
    { label: t("general.timeZone"), value: timeZoneName(org.timeZone, locale), title: org.timeZone },
    { label: t("general.createdAt"), value: formatDateTime(org.createdAt, locale) },
  ];
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
              {...field("name")}
            />
            <div>
              <Text size="sm" fw={500} mb={4}>
                {t("general.id")}
              </Text>
              <CopyField value={org.id} />
            </div>
            <Group gap="xl">
              {facts.map((f) => (
                <div key={f.label}>
                  <Text size="xs" c="dimmed">
                    {f.label}
                  </Text>
                  <Text size="sm" title={f.title} data-testid={f.title ? "org-time-zone" : undefined}>
                    {f.value}
                  </Text>
                </div>
              ))}
            </Group>
            <FormFooter
              error={formError}
              saved={saved}
              editable={isAdmin}
              submitting={form.formState.isSubmitting}
              disabled={!form.formState.isDirty}
            />
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
      <CreateOrgDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={onCreated}
        edition={org.edition}
      />
    </Stack>
  );
}
