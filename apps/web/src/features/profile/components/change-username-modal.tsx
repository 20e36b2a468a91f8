import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { ChangeUsernameRequest } from "@moonport/contracts";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormError } from "../../../components/form-error.tsx";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import { useChangeUsername } from "../api/update-account.ts";

type Input = z.input<typeof ChangeUsernameRequest>;
type Output = z.output<typeof ChangeUsernameRequest>;

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
  const msg = useFieldMessage();
  const applyApiError = useApplyApiError();
  const mutation = useChangeUsername();
  const [formError, setFormError] = useState<string>();
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(ChangeUsernameRequest),
    defaultValues: { username: current ?? "" },
  });
  useEffect(() => {
    if (opened) {
      form.reset({ username: current ?? "" });
      setFormError(undefined);
    }
  }, [opened, current, form]);

  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await mutation.mutateAsync(values);
      notifications.show({ color: "teal", message: t("username.done") });
      onClose();
    } catch (error) {
      setFormError(applyApiError(error, form.setError, ["username"], (reason) => t("username.failed", { reason })));
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t("username.title")} centered>
      <form onSubmit={submit} noValidate>
        <fieldset disabled={form.formState.isSubmitting} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack>
            <FormError message={formError} />
            <TextInput
              label={t("username.label")}
              description={t("username.rules")}
              autoComplete="username"
              data-autofocus
              error={msg(form.formState.errors.username?.message)}
              {...form.register("username")}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                {t("common:cancel")}
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting}>
                {t("common:save")}
              </Button>
            </Group>
          </Stack>
        </fieldset>
      </form>
    </Modal>
  );
}
