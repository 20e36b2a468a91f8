import { notifications } from "@mantine/notifications";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api.ts";

export type FailureAction =
  | "inviteMember"
  | "editMember"
  | "deleteMember"
  | "fetchMembers"
  | "createProject"
  | "archiveProject"
  | "updateProject"
  | "createKey"
  | "updateKey"
  | "deleteKey"
  | "joinInvitation"
  | "updateOrg"
  | "createOrg"
  | "fetchBills";

/**
 * The §8 message for a failed action, with the server's reason: "API key creation failed: …". Takes the error,
 * or the reason already worked out (what `useZodForm().onSubmit` passes to its wrapper).
 */
export function useFailureMessage() {
  const { t } = useTranslation("org");
  return useCallback(
    (action: FailureAction, error: unknown) =>
      t(`failure.${action}`, {
        reason: typeof error === "string" ? error : error instanceof ApiError ? error.message : t("failure.tryLater"),
      }),
    [t],
  );
}

/** Shows the §8 failure message as a red notification. */
export function useNotifyFailure() {
  const message = useFailureMessage();
  return useCallback(
    (action: FailureAction, error: unknown) => {
      notifications.show({ color: "red", message: message(action, error) });
    },
    [message],
  );
}

/**
 * A list query whose error reads as the screen's §8 message ("File list fetch failed: {reason}"), for the
 * `query` prop of `DataTable`. `message(reason)` builds the sentence; the reason is the server's when it sent one.
 */
export function withFetchFailure<Q extends { isError: boolean; error: unknown }>(
  query: Q,
  message: (reason: string | null) => string,
): Q {
  if (!query.isError) return query;
  return { ...query, error: new Error(message(query.error instanceof ApiError ? query.error.message : null)) };
}
