import { Button, TextInput, type TextInputProps } from "@mantine/core";
import type { SendSmsResponse } from "@moonport/contracts";
import { forwardRef, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

export interface SmsCodeInputProps extends TextInputProps {
  /** Sends the code; resolves with the server's resend wait. Rejects to leave the button enabled. */
  onSend: () => Promise<SendSmsResponse | undefined>;
  sendDisabled?: boolean;
}

/** A 6-digit code input whose button sends the code and then counts down to the next allowed resend. */
export const SmsCodeInput = forwardRef<HTMLInputElement, SmsCodeInputProps>(function SmsCodeInput(
  { onSend, sendDisabled, ...props },
  ref,
) {
  const { t } = useTranslation("auth");
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const remaining = Math.max(0, Math.ceil((until - now) / 1000));

  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [until]);

  const send = async () => {
    setSending(true);
    try {
      const res = await onSend();
      if (res) {
        setSent(true);
        setNow(Date.now());
        setUntil(Date.now() + res.resendAfterSeconds * 1000);
      }
    } catch {
      // The caller shows the error next to the phone field.
    } finally {
      setSending(false);
    }
  };

  return (
    <TextInput
      ref={ref}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder={t("sms.codePlaceholder")}
      rightSectionWidth={remaining > 0 ? 132 : 112}
      rightSection={
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={send}
          loading={sending}
          disabled={sendDisabled || remaining > 0}
          data-testid="send-code"
        >
          {remaining > 0 ? t("sms.resendIn", { seconds: remaining }) : sent ? t("sms.resend") : t("sms.send")}
        </Button>
      }
      {...props}
    />
  );
});
