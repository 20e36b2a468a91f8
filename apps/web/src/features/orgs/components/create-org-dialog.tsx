import { Radio, Stack, Text, TextInput } from "@mantine/core";
import { CreateOrgRequest, EDITION_CURRENCY, EDITIONS, type Edition } from "@moonport/contracts";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useCreateOrg } from "../api/create-org.ts";

/**
 * A further organization. Its edition fixes its currency for good, so the dialog asks for it, starting from the
 * edition of the organization the user works in (not from the interface language).
 */
export function CreateOrgDialog({
  opened,
  onClose,
  onCreated,
  edition,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated?: (orgId: string) => void;
  /** The current organization's edition: the default choice. */
  edition: Edition;
}) {
  const { t } = useTranslation("org");
  const failure = useFailureMessage();
  const create = useCreateOrg();
  const { form, field, error, dialog } = useDialogForm(CreateOrgRequest, {
    opened,
    onClose,
    defaultValues: { name: "", edition },
    submit: async (values) => {
      const res = await create.mutateAsync(values);
      onCreated?.(res.id);
    },
    failure: (reason) => failure("createOrg", reason),
  });
  return (
    <FormDialog {...dialog} title={t("general.newOrgTitle")} submitLabel={t("general.newOrg")}>
      <TextInput label={t("general.name")} withAsterisk data-autofocus {...field("name")} />
      <Controller
        control={form.control}
        name="edition"
        render={({ field: f }) => (
          <Radio.Group
            label={t("general.edition")}
            description={t("general.editionHint")}
            value={f.value ?? edition}
            onChange={(v) => f.onChange(v as Edition)}
            error={error("edition")}
            data-testid="new-org-edition"
          >
            <Stack gap="xs" mt="xs">
              {EDITIONS.map((e) => (
                <Radio
                  key={e}
                  value={e}
                  label={
                    <Text size="sm" component="span">
                      {t(`general.editions.${e}`, { currency: EDITION_CURRENCY[e] })}
                    </Text>
                  }
                />
              ))}
            </Stack>
          </Radio.Group>
        )}
      />
    </FormDialog>
  );
}
