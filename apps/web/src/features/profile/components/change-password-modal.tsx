import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, PasswordInput, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { ChangePasswordRequest } from "@moonport/contracts";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormError } from "../../../components/form-error.tsx";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import { useChangePassword } from "../api/update-account.ts";

type Input = z.input<typeof ChangePasswordRequest>;
type Output = z.output<typeof ChangePasswordRequest>;
const EMPTY: Input = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation("profile");
  const msg = useFieldMessage();
  const applyApiError = useApplyApiError();
  const mutation = useChangePassword();
  const [formError, setFormError] = useState<string>();
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(ChangePasswordRequest), defaultValues: EMPTY });
  const errors = form.formState.errors;
  useEffect(() => {
    if (opened) {
      form.reset(EMPTY);
      setFormError(undefined);
    }
  }, [opened, form]);

  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await mutation.mutateAsync(values);
      notifications.show({ color: "teal", message: t("password.done") });
      onClose();
    } catch (error) {
      setFormError(
        applyApiError(error, form.setError, ["currentPassword", "newPassword", "confirmPassword"], (reason) =>
          t("password.failed", { reason }),
        ),
      );
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t("password.title")} centered>
      <form onSubmit={submit} noValidate>
        <fieldset disabled={form.formState.isSubmitting} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack>
            <FormError message={formError} />
            <PasswordInput
              label={t("password.current")}
              autoComplete="current-password"
              data-autofocus
              error={msg(errors.currentPassword?.message)}
              {...form.register("currentPassword")}
            />
            <PasswordInput
              label={t("password.new")}
              description={t("password.rules")}
              autoComplete="new-password"
              error={msg(errors.newPassword?.message)}
              {...form.register("newPassword")}
            />
            <PasswordInput
              label={t("password.confirm")}
              autoComplete="new-password"
              error={msg(errors.confirmPassword?.message)}
              {...form.register("confirmPassword")}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                {t("common:cancel")}
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting}>
                {t("password.submit")}
              </Button>
            </Group>
          </Stack>
        </fieldset>
      </form>
    </Modal>
  );
}
