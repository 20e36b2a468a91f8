import { Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { BindPhoneRequest, normalizePhone, vmsg } from "@moonport/contracts";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { useZodForm } from "../../../components/console-kit/use-zod-form.ts";
import { SmsCodeInput } from "../../../components/sms-code-input.tsx";
import { ApiError } from "../../../lib/api.ts";
import { useSendSms } from "../../auth/api/send-sms.ts";
import { useBindPhone } from "../api/update-account.ts";

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
  const bind = useBindPhone();
  const sendSms = useSendSms();
  const rebinding = currentPhone !== null;
  const schema = useMemo(
    () =>
      rebinding
        ? BindPhoneRequest.refine((v) => Boolean(v.oldCode), { message: vmsg("required"), path: ["oldCode"] })
        : BindPhoneRequest,
    [rebinding],
  );
  // A first binding has no old phone: its code stays undefined (not ""), which the contract accepts.
  const empty = useMemo(() => ({ oldCode: rebinding ? "" : undefined, newPhone: "", newCode: "" }), [rebinding]);
  const { form, field, onSubmit, formError, setFormError } = useZodForm(schema, { defaultValues: empty });
  useEffect(() => {
    if (opened) {
      form.reset(empty);
      setFormError(undefined);
    }
  }, [opened, form, empty, setFormError]);

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

  const submit = onSubmit(
    async (values) => {
      await bind.mutateAsync(rebinding ? values : { newPhone: values.newPhone, newCode: values.newCode });
      notifications.show({ color: "teal", message: t("phone.done") });
      onClose();
    },
    (reason) => t("phone.failed", { reason }),
  );

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t(rebinding ? "phone.rebindTitle" : "phone.bindTitle")}
      onSubmit={submit}
      submitting={form.formState.isSubmitting}
      submitLabel={t(rebinding ? "phone.rebind" : "phone.bind")}
      error={formError}
    >
      {rebinding ? (
        <>
          <Text size="sm" c="dimmed">
            {t("phone.oldHint", { phone: currentPhone })}
          </Text>
          <SmsCodeInput label={t("phone.oldCode")} onSend={sendOld} {...field("oldCode")} />
        </>
      ) : null}
      <TextInput
        label={t("phone.newPhone")}
        placeholder={t("auth:phonePlaceholder")}
        inputMode="tel"
        autoComplete="tel"
        {...field("newPhone")}
      />
      <SmsCodeInput label={t("phone.newCode")} onSend={sendNew} {...field("newCode")} />
    </FormDialog>
  );
}
