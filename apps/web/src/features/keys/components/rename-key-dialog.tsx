import { TextInput } from "@mantine/core";
import { ApiKeyName, type ApiKeyRow } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog, type RowDialogProps } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useUpdateApiKey } from "../api/update-api-key.ts";

const RenameForm = z.object({ name: ApiKeyName });

export function RenameKeyDialog({ orgId, row: apiKey, onClose }: RowDialogProps<ApiKeyRow>) {
  const { t } = useTranslation("org");
  const failure = useFailureMessage();
  const update = useUpdateApiKey(orgId);
  const { field, dialog } = useDialogForm(RenameForm, {
    opened: apiKey !== null,
    onClose,
    values: { name: apiKey?.name ?? "" },
    submit: async (values) => {
      if (apiKey) await update.mutateAsync({ id: apiKey.id, name: values.name });
    },
    failure: (reason) => failure("updateKey", reason),
  });
  return (
    <FormDialog {...dialog} title={t("keys.renameTitle")}>
      <TextInput label={t("keys.name")} withAsterisk data-autofocus {...field("name")} />
    </FormDialog>
  );
}
