import { zodResolver } from "@hookform/resolvers/zod";
import { useCallback, useRef, useState } from "react";
import { type FieldErrors, type FieldValues, type Path, type UseFormProps, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { useApplyApiError, useFieldMessage } from "../../lib/forms.ts";

/**
 * react-hook-form bound to a zod schema (usually the contracts' request schema), typed from the schema's input and
 * output. Fields are rendered through `field(name)` (inputs) or `error(name)` (controlled inputs); the hook
 * remembers which fields the form showed, so that
 * - a validation error on a field the user cannot see is shown above the form instead of failing silently;
 * - a failed request's field details go to the fields shown, everything else above the form.
 */
export function useZodForm<TIn extends FieldValues, TOut extends FieldValues>(
  schema: z.ZodType<TOut, TIn>,
  options: Omit<UseFormProps<TIn, unknown, TOut>, "resolver"> = {},
) {
  const { t } = useTranslation();
  const form = useForm<TIn, unknown, TOut>({ resolver: zodResolver(schema), ...options });
  const fieldMessage = useFieldMessage();
  const applyApiError = useApplyApiError();
  const [formError, setFormError] = useState<string>();
  // Filled during render by field()/error(); read when a submit fails.
  const shown = useRef(new Set<string>());
  shown.current = new Set();

  const errorOf = (name: Path<TIn>): string | undefined => {
    shown.current.add(name);
    const e = (form.formState.errors as Record<string, { message?: string } | undefined>)[name];
    return fieldMessage(e?.message);
  };
  const field = (name: Path<TIn>) => ({ ...form.register(name), error: errorOf(name) });

  /**
   * The submit handler: runs `onValid` with the parsed values; a thrown request error goes to the shown fields or
   * above the form as `wrap(reason)` ("Project creation failed: …").
   */
  const onSubmit = useCallback(
    (onValid: (values: TOut) => Promise<unknown>, wrap?: (reason: string, error: unknown) => string) =>
      form.handleSubmit(
        async (values) => {
          setFormError(undefined);
          try {
            await onValid(values);
          } catch (err) {
            const fields = [...shown.current] as Path<TIn>[];
            setFormError(applyApiError(err, form.setError, fields, wrap));
          }
        },
        (errors: FieldErrors<TIn>) => {
          const hidden = Object.entries(errors)
            .filter(([name]) => !shown.current.has(name))
            .map(([, e]) => fieldMessage((e as { message?: string } | undefined)?.message))
            .filter((m): m is string => Boolean(m));
          setFormError(hidden.length > 0 ? t("common:form.hiddenInvalid", { reason: hidden.join("; ") }) : undefined);
        },
      ),
    [form, applyApiError, fieldMessage, t],
  );

  return { form, field, error: errorOf, onSubmit, formError, setFormError };
}

export type ZodForm<TIn extends FieldValues, TOut extends FieldValues> = ReturnType<typeof useZodForm<TIn, TOut>>;

/**
 * A form in a dialog (see `FormDialog`): `useZodForm` plus closing, which clears the fields and the form error.
 * `submit` runs with the parsed values; the dialog closes after it unless it returns "stay" (a dialog that shows a
 * result next, like a new key's secret). Spread `dialog` into `<FormDialog>`.
 */
export function useDialogForm<TIn extends FieldValues, TOut extends FieldValues>(
  schema: z.ZodType<TOut, TIn>,
  {
    opened,
    onClose,
    submit,
    failure,
    ...options
  }: Omit<UseFormProps<TIn, unknown, TOut>, "resolver"> & {
    opened: boolean;
    onClose: () => void;
    submit: (values: TOut) => Promise<unknown>;
    failure?: (reason: string, error: unknown) => string;
  },
) {
  const zodForm = useZodForm(schema, options);
  const { form, setFormError, onSubmit, formError } = zodForm;
  const close = () => {
    form.reset();
    setFormError(undefined);
    onClose();
  };
  const handle = onSubmit(async (values) => {
    if ((await submit(values)) !== "stay") close();
  }, failure);
  return {
    ...zodForm,
    close,
    dialog: { opened, onClose: close, onSubmit: handle, submitting: form.formState.isSubmitting, error: formError },
  };
}
