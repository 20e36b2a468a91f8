import { normalizePhone, type SmsPurpose } from "@moonport/contracts";
import type { FieldValues, Path, PathValue, UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../lib/api.ts";
import { useSendSms } from "../api/send-sms.ts";

/**
 * "Send code" for a form with a phone field: validates the phone first, sends, and puts a failure (with the
 * server's reason) under the phone field. Resolves with the resend wait for the countdown.
 */
export function useSmsSender<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  field: Path<T>,
  purpose: SmsPurpose,
) {
  const { t } = useTranslation("auth");
  const sendSms = useSendSms();
  return async () => {
    if (!(await form.trigger(field))) return undefined;
    const phone = normalizePhone(String(form.getValues(field) as PathValue<T, Path<T>>))!;
    try {
      return await sendSms.mutateAsync({ phone, purpose });
    } catch (error) {
      // The server's own SMS failure already says "Failed to send the SMS: …"; anything else gets that prefix.
      const reason =
        error instanceof ApiError ? (error.details[0]?.message ?? error.message) : t("common:networkError");
      const message =
        error instanceof ApiError && error.code === "sms_send_failed" ? error.message : t("sms.failed", { reason });
      form.setError(field, { type: "server", message });
      throw error;
    }
  };
}
