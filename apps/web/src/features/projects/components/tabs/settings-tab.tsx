import { Button, Card, Divider, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { type Currency, type OrgRole, type ProjectDetail, UpdateProjectRequest } from "@moonport/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useFailureMessage } from "../../../../components/console-kit/failure.ts";
import { FormFooter } from "../../../../components/console-kit/form-footer.tsx";
import { formatInt } from "../../../../components/console-kit/money.ts";
import { useZodForm } from "../../../../components/console-kit/use-zod-form.ts";
import { useLocale } from "../../../../i18n/index.ts";
import { useUpdateProject } from "../../api/update-project.ts";
import { ArchiveDialog } from "../archive-dialog.tsx";

const AMOUNT_FIELDS = ["monthlyBudget", "dailyBudget", "monthlyAlert", "dailyAlert"] as const;
type NumberField = (typeof AMOUNT_FIELDS)[number] | "tpmLimit";

/**
 * Number fields are plain text: what the user typed stays as typed ("-12.5" is not turned into "125"), and the
 * contract's message says what is wrong with it (sign, decimals, the bound). Empty means "none".
 */
function toNumber(text: string): number | null {
  const s = text.trim();
  if (s === "") return null;
  const n = Number(s);
  // A whole number too long for a double is still a whole number: keep it beyond the bound so the message names
  // the bound instead of claiming it is not an integer.
  if (/^-?\d+$/.test(s) && !Number.isSafeInteger(n)) return n < 0 ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  return n;
}

const SettingsForm = z
  .object({
    name: z.string(),
    description: z.string(),
    monthlyBudget: z.string(),
    dailyBudget: z.string(),
    monthlyAlert: z.string(),
    dailyAlert: z.string(),
    tpmLimit: z.string(),
  })
  // The contract validates what is sent (bounds, and any relation between the fields); its issues come back on
  // the fields they name.
  .transform((v, ctx) => {
    const parsed = UpdateProjectRequest.safeParse({
      name: v.name,
      description: v.description,
      monthlyBudget: toNumber(v.monthlyBudget),
      dailyBudget: toNumber(v.dailyBudget),
      monthlyAlert: toNumber(v.monthlyAlert),
      dailyAlert: toNumber(v.dailyAlert),
      tpmLimit: toNumber(v.tpmLimit),
    });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  });

const text = (n: number | null) => (n === null ? "" : String(n));

/** Name, description, budgets, alerts and the TPM cap; organization admins also archive the project here. */
export function SettingsTab({
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
  const locale = useLocale();
  const failure = useFailureMessage();
  const update = useUpdateProject(orgId, project.id);
  const [saved, setSaved] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const editable = project.role === "admin" && project.status === "active";
  const s = project.settings;
  const { form, field, onSubmit, formError } = useZodForm(SettingsForm, {
    values: {
      name: project.name,
      description: project.description,
      monthlyBudget: text(s.monthlyBudget),
      dailyBudget: text(s.dailyBudget),
      monthlyAlert: text(s.monthlyAlert),
      dailyAlert: text(s.dailyAlert),
      tpmLimit: text(s.tpmLimit),
    },
  });
  const submit = onSubmit(
    async (values) => {
      setSaved(false);
      await update.mutateAsync(values);
      setSaved(true);
    },
    (reason) => failure("updateProject", reason),
  );
  const symbol = currency === "CNY" ? "¥" : "$";
  const orgTpm = formatInt(project.orgTpm, locale);
  const numberProps = (name: NumberField) => ({ ...field(name), inputMode: "numeric" as const, autoComplete: "off" });
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
                  {...field("name")}
                />
                <TextInput
                  label={t("projects.description")}
                  description={t("projects.descriptionHint")}
                  {...field("description")}
                />
              </SimpleGrid>
              <Divider label={t("projects.budgets")} labelPosition="left" />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {AMOUNT_FIELDS.map((f) => (
                  <TextInput
                    key={f}
                    label={t(`projects.field.${f}`)}
                    description={t("projects.amountHint")}
                    leftSection={symbol}
                    placeholder={t("projects.none")}
                    data-testid={`field-${f}`}
                    {...numberProps(f)}
                  />
                ))}
              </SimpleGrid>
              <Divider label={t("projects.rateLimit")} labelPosition="left" />
              <TextInput
                label={t("projects.field.tpmLimit")}
                description={t("projects.tpmHint", { max: orgTpm })}
                placeholder={t("projects.tpmDefault", { max: orgTpm })}
                maw={340}
                data-testid="field-tpmLimit"
                {...numberProps("tpmLimit")}
              />
              <FormFooter
                error={formError}
                saved={saved}
                editable={editable}
                submitting={form.formState.isSubmitting}
              />
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
