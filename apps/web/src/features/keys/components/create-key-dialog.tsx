import { Select, TextInput } from "@mantine/core";
import { CreateApiKeyRequest } from "@moonport/contracts";
import { useEffect, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog, InfoDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useCreateApiKey } from "../api/create-api-key.ts";
import { SecretReveal } from "./secret-reveal.tsx";

/**
 * Name and project of a new key, then its secret, once. The project is preselected when there is only one to
 * choose from (or the screen is a project's).
 */
export function CreateKeyDialog({
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
  const failure = useFailureMessage();
  const create = useCreateApiKey(orgId);
  const [secret, setSecret] = useState<string | null>(null);
  const preselected = fixedProjectId ?? (projects.length === 1 ? projects[0]!.value : "");
  const { form, field, error, dialog, close } = useDialogForm(CreateApiKeyRequest, {
    opened,
    onClose: () => {
      setSecret(null);
      create.reset();
      onClose();
    },
    defaultValues: { name: "", projectId: preselected },
    submit: async (values) => {
      setSecret((await create.mutateAsync(values)).secret);
      return "stay";
    },
    failure: (reason) => failure("createKey", reason),
  });
  // Empty on each opening; a project list that loads after the user started typing fills in the project without
  // clearing the name they typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only an opening resets; a later preselected is the next effect's
  useEffect(() => {
    if (opened) form.reset({ name: "", projectId: preselected });
  }, [opened, form]);
  useEffect(() => {
    if (opened && preselected && !form.getValues("projectId")) form.setValue("projectId", preselected);
  }, [opened, preselected, form]);
  if (secret) {
    return (
      <InfoDialog opened={opened} onClose={close} title={t("keys.createdTitle")} doneLabel={t("keys.done")}>
        <SecretReveal secret={secret} />
      </InfoDialog>
    );
  }
  return (
    <FormDialog {...dialog} title={t("keys.createTitle")} submitLabel={t("keys.createSubmit")} size="lg">
      <TextInput
        label={t("keys.name")}
        placeholder={t("keys.namePlaceholder")}
        withAsterisk
        maxLength={64}
        data-autofocus
        {...field("name")}
      />
      {fixedProjectId ? null : (
        <Controller
          control={form.control}
          name="projectId"
          render={({ field: f }) => (
            <Select
              label={t("keys.project")}
              placeholder={t("keys.projectPlaceholder")}
              data={projects}
              withAsterisk
              allowDeselect={false}
              value={f.value || null}
              onChange={(v) => f.onChange(v ?? "")}
              error={error("projectId")}
              comboboxProps={{ withinPortal: true }}
              data-testid="key-project-select"
            />
          )}
        />
      )}
    </FormDialog>
  );
}
