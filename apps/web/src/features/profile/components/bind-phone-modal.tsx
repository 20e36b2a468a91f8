import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { BindPhoneRequest, normalizePhone, vmsg } from "@moonport/contracts";
import { useEffect, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormError } from "../../../components/form-error.tsx";
import { SmsCodeInput } from "../../../components/sms-code-input.tsx";
import { ApiError } from "../../../lib/api.ts";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import { useSendSms } from "../../auth/api/send-sms.ts";
import { useBindPhone } from "../api/update-account.ts";

type Input = z.input<typeof BindPhoneRequest>;
type Output = z.output<typeof BindPhoneRequest>;
const EMPTY: Input = { oldCode: "", newPhone: "", newCode: "" };

/** Binding a first phone needs a code to it; rebinding also needs a code sent to the phone bound now. */
export function BindPhoneModal({
  opened,
  onClose,
  currentPhone,
}: {
  opened: boolean;
  onClose: () => void;
  currentPhone: string | null;
}) {
  const { t } = useTranslation("profile");
  const msg = useFieldMessage();
  const applyApiError = useApplyApiError();
  const bind = useBindPhone();
  const sendSms = useSendSms();
  const [formError, setFormError] = useState<string>();
  const rebinding = currentPhone !== null;
  const schema = useMemo(
    () =>
      rebinding
        ? BindPhoneRequest.refine((v) => Boolean(v.oldCode), { message: vmsg("required"), path: ["oldCode"] })
        : BindPhoneRequest,
    [rebinding],
  );
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });
  const errors = form.formState.errors;
  useEffect(() => {
    if (opened) {
      form.reset(EMPTY);
      setFormError(undefined);
    }
  }, [opened, form]);

  const smsFailed = (error: unknown) =>
    error instanceof ApiError && error.code === "sms_send_failed"
      ? error.message
      : t("auth:sms.failed", {
          reason: error instanceof ApiError ? (error.details[0]?.message ?? error.message) : t("common:networkError"),
        });

  const sendOld = async () => {
    try {
      return await sendSms.mutateAsync({ purpose: "bind_old" });
    } catch (error) {
      form.setError("oldCode", { type: "server", message: smsFailed(error) });
      throw error;
    }
  };
  const sendNew = async () => {
    const valid = await form.trigger("newPhone");
    if (!valid) return undefined;
    const phone = normalizePhone(form.getValues("newPhone"))!;
    try {
      return await sendSms.mutateAsync({ phone, purpose: "bind_new" });
    } catch (error) {
      form.setError("newPhone", { type: "server", message: smsFailed(error) });
      throw error;
    }
  };

  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await bind.mutateAsync(rebinding ? values : { newPhone: values.newPhone, newCode: values.newCode });
      notifications.show({ color: "teal", message: t("phone.done") });
      onClose();
    } catch (error) {
      setFormError(
        applyApiError(error, form.setError, ["oldCode", "newPhone", "newCode"], (reason) =>
          t("phone.failed", { reason }),
        ),
      );
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t(rebinding ? "phone.rebindTitle" : "phone.bindTitle")} centered>
      <form onSubmit={submit} noValidate>
        <fieldset disabled={form.formState.isSubmitting} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack>
            <FormError message={formError} />
            {rebinding ? (
              <>
                <Text size="sm" c="dimmed">
                  {t("phone.oldHint", { phone: currentPhone })}
                </Text>
                <SmsCodeInput
                  label={t("phone.oldCode")}
                  onSend={sendOld}
                  error={msg(errors.oldCode?.message)}
                  {...form.register("oldCode")}
                />
              </>
            ) : null}
            <TextInput
              label={t("phone.newPhone")}
              placeholder={t("auth:phonePlaceholder")}
              inputMode="tel"
              autoComplete="tel"
              error={msg(errors.newPhone?.message)}
              {...form.register("newPhone")}
            />
            <SmsCodeInput
              label={t("phone.newCode")}
              onSend={sendNew}
              error={msg(errors.newCode?.message)}
              {...form.register("newCode")}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                {t("common:cancel")}
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting}>
                {t(rebinding ? "phone.rebind" : "phone.bind")}
              </Button>
            </Group>
          </Stack>
        </fieldset>
      </form>
    </Modal>
  );
}
