import { TextInput } from "@mantine/core";
import { UpdateOrgRequest } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useCreateOrg } from "../api/create-org.ts";

export function CreateOrgDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated?: (orgId: string) => void;
}) {
  const { t } = useTranslation("org");
  const failure = useFailureMessage();
  const create = useCreateOrg();
  const { field, dialog } = useDialogForm(UpdateOrgRequest, {
    opened,
    onClose,
    defaultValues: { name: "" },
    submit: async (values) => {
      const res = await create.mutateAsync(values.name);
      onCreated?.(res.id);
    },
    failure: (reason) => failure("createOrg", reason),
  });
  return (
    <FormDialog {...dialog} title={t("general.newOrgTitle")} submitLabel={t("general.newOrg")}>
      <TextInput label={t("general.name")} withAsterisk data-autofocus {...field("name")} />
    </FormDialog>
  );
}
