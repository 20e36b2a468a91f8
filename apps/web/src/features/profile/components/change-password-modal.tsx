import { PasswordInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { ChangePasswordRequest } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { useChangePassword } from "../api/update-account.ts";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation("profile");
  const mutation = useChangePassword();
  const { field, dialog } = useDialogForm(ChangePasswordRequest, {
    opened,
    onClose,
    defaultValues: EMPTY,
    submit: async (values) => {
      await mutation.mutateAsync(values);
      notifications.show({ color: "teal", message: t("password.done") });
    },
    failure: (reason) => t("password.failed", { reason }),
  });

  return (
    <FormDialog {...dialog} title={t("password.title")} submitLabel={t("password.submit")}>
      <PasswordInput
        label={t("password.current")}
        autoComplete="current-password"
        data-autofocus
        {...field("currentPassword")}
      />
      <PasswordInput
        label={t("password.new")}
        description={t("password.rules")}
        autoComplete="new-password"
        {...field("newPassword")}
      />
      <PasswordInput label={t("password.confirm")} autoComplete="new-password" {...field("confirmPassword")} />
    </FormDialog>
  );
}
