import { TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { ChangeUsernameRequest } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useChangeUsername } from "../api/update-account.ts";

export function ChangeUsernameModal({
  opened,
  onClose,
  current,
}: {
  opened: boolean;
  onClose: () => void;
  current: string | null;
}) {
  const { t } = useTranslation("profile");
  const mutation = useChangeUsername();
  const { field, dialog } = useDialogForm(ChangeUsernameRequest, {
    opened,
    onClose,
    values: { username: current ?? "" },
    submit: async (values) => {
      await mutation.mutateAsync(values);
      notifications.show({ color: "teal", message: t("username.done") });
    },
    failure: (reason) => t("username.failed", { reason }),
  });

  return (
    <FormDialog {...dialog} title={t("username.title")}>
      <TextInput
        label={t("username.label")}
        description={t("username.rules")}
        autoComplete="username"
        data-autofocus
        {...field("username")}
      />
    </FormDialog>
  );
}
