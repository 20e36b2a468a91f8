import { Alert, TextInput } from "@mantine/core";
import type { ProjectDetail } from "@moonport/contracts";
import { IconArchive } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useFailureMessage } from "../../../components/console-kit/failure.ts";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useArchiveProject } from "../api/archive-project.ts";

const ArchiveForm = z.object({ confirmName: z.string() });

/** Archiving asks for the project's name, typed again. */
export function ArchiveDialog({
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
  const { form, field, dialog } = useDialogForm(ArchiveForm, {
    opened,
    onClose,
    defaultValues: { confirmName: "" },
    submit: async (values) => {
      await archive.mutateAsync(values.confirmName);
    },
    failure: (reason) => failure("archiveProject", reason),
  });
  return (
    <FormDialog
      {...dialog}
      title={t("projects.archiveTitle")}
      submitLabel={t("projects.archiveConfirm")}
      submitDisabled={form.watch("confirmName") !== project.name}
      danger
    >
      <Alert color="red" variant="light" icon={<IconArchive size={16} />}>
        {t("projects.archiveWarning")}
      </Alert>
      <TextInput
        label={t("projects.archiveConfirmLabel", { name: project.name })}
        data-testid="archive-confirm-input"
        {...field("confirmName")}
      />
    </FormDialog>
  );
}
