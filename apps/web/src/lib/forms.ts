import { translateValidation } from "@moonport/contracts";
import { useCallback } from "react";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useLocale } from "../i18n/index.ts";
import { ApiError } from "./api.ts";

/**
 * Field messages come either from the shared zod schemas (message keys, translated here) or from the server
 * (already localized; translateValidation leaves them unchanged).
 */
export function useFieldMessage() {
  const locale = useLocale();
  return useCallback(
    (message: string | undefined) => (message ? translateValidation(message, locale) : undefined),
    [locale],
  );
}

/**
 * Puts a failed request's field errors next to the matching inputs and returns the message for the form as a
 * whole (the server's localized message, wrapped by `wrap`, e.g. "Password update failed: {reason}"; `wrap` also
 * gets the error, for a form whose words depend on its kind), or undefined when every problem was attached to a field.
 */
export function useApplyApiError() {
  const { t } = useTranslation();
  return useCallback(
    <T extends FieldValues>(
      error: unknown,
      setError: UseFormSetError<T>,
      fields: readonly Path<T>[],
      wrap?: (reason: string, error: unknown) => string,
    ): string | undefined => {
      if (!(error instanceof ApiError)) {
        const reason = t("common:networkError");
        return wrap ? wrap(reason, error) : reason;
      }
      let attached = 0;
      for (const d of error.details) {
        const field = fields.find((f) => f === d.path);
        if (field) {
          setError(field, { type: "server", message: d.message });
          attached += 1;
        }
      }
      if (attached > 0 && attached === error.details.length) return undefined;
      return wrap ? wrap(error.message, error) : error.message;
    },
    [t],
  );
}

/** `next` after sign-in: only same-site paths, never `//host` or an absolute URL. */
export function safeNext(next: string | null | undefined, fallback = "/console"): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  return next;
}
