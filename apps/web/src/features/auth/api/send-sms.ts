import { type SendSmsRequest, SendSmsResponse } from "@moonport/contracts";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";

/** Sends an SMS code (sign-up, sign-in, or the old/new phone when binding); answers with the resend wait. */
export function useSendSms() {
  return useMutation({
    mutationFn: (body: SendSmsRequest) => api("/api/auth/sms", { body, schema: SendSmsResponse }),
  });
}
