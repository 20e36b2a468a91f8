import { TextInput } from "@mantine/core";
import { CreateProjectRequest } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useCreateProject } from "../api/create-project.ts";

export function CreateProjectDialog({
  orgId,
  opened,
  onClose,
}: {
  orgId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("org");
  const failure = useFailureMessage();
  const create = useCreateProject(orgId);
  const { field, dialog } = useDialogForm(CreateProjectRequest, {
    opened,
    onClose,
    defaultValues: { name: "", description: "" },
    submit: async (values) => {
      await create.mutateAsync(values);
    },
    failure: (reason) => failure("createProject", reason),
  });
  return (
    <FormDialog {...dialog} title={t("projects.createTitle")} submitLabel={t("projects.createSubmit")}>
      <TextInput
        label={t("projects.name")}
        description={t("projects.nameHint")}
        withAsterisk
        data-autofocus
        {...field("name")}
      />
      <TextInput
        label={t("projects.description")}
        description={t("projects.descriptionHint")}
        {...field("description")}
      />
    </FormDialog>
  );
}
