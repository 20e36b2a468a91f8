import { Anchor, Button, PasswordInput, Stack, Tabs, TextInput } from "@mantine/core";
import type { FormEvent, ReactNode } from "react";
import type { DefaultValues, FieldValues, UseFormRegisterReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, Navigate } from "react-router";
import type { z } from "zod";
import { useZodForm } from "../../../components/console-kit/use-zod-form.ts";
import { FormError } from "../../../components/form-error.tsx";
import { PageMeta } from "../../../components/page-meta.tsx";
import { SmsCodeInput, type SmsCodeInputProps } from "../../../components/sms-code-input.tsx";
import { useSignedIn } from "../../../lib/session.ts";
import { useAuthReturn } from "../hooks/use-auth-return.ts";
import { AuthLayout } from "./auth-layout.tsx";

/** `useZodForm().field` (or any input binding with its error message) for the named fields. */
type FieldOf<N extends string> = (name: N) => UseFormRegisterReturn<string> & { error?: string };

/**
 * A sign-in or sign-up page: straight on when already signed in (asked without /api/me, whose 401 for every
 * visitor would be a console error), else the layout with the link to the other page, which keeps `?next=`.
 */
export function AuthPage({
  title,
  other,
  question,
  otherLabel,
  children,
}: {
  title: string;
  other: "/signin" | "/signup";
  question: string;
  otherLabel: string;
  children: (onDone: () => void) => ReactNode;
}) {
  const { next, onDone, otherHref } = useAuthReturn(other);
  if (useSignedIn()) return <Navigate to={next} replace />;
  return (
    <AuthLayout
      title={title}
      subtitle={
        <>
          {question}{" "}
          <Anchor component={Link} to={otherHref} fw={500}>
            {otherLabel}
          </Anchor>
        </>
      }
    >
      <PageMeta title={title} />
      {children(onDone)}
    </AuthLayout>
  );
}

/** Two ways to do the same thing (password or SMS, phone or username), one tab each. */
export function AuthTabs({ tabs }: { tabs: { value: string; testId: string; label: string; panel: ReactNode }[] }) {
  return (
    <Tabs defaultValue={tabs[0]!.value} keepMounted={false}>
      <Tabs.List grow mb="lg">
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value} data-testid={tab.testId}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Panel key={tab.value} value={tab.value}>
          {tab.panel}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/**
 * An auth page's form on `useZodForm`: `submit` runs with the parsed values (then `onDone`), a failure goes to the
 * fields or above the form as `wrap(reason)`. Spread `props` into `<AuthForm>`.
 */
export function useAuthForm<TIn extends FieldValues, TOut extends FieldValues>(
  schema: z.ZodType<TOut, TIn>,
  defaultValues: DefaultValues<TIn>,
  submit: (values: TOut) => Promise<unknown>,
  wrap?: (reason: string) => string,
) {
  const zodForm = useZodForm(schema, { defaultValues });
  const props = {
    onSubmit: zodForm.onSubmit(submit, wrap),
    error: zodForm.formError,
    submitting: zodForm.form.formState.isSubmitting,
  };
  return { form: zodForm.form, field: zodForm.field, props };
}

/** The form of an auth page: its error above the fields, the full-width submit button below. */
export function AuthForm({
  onSubmit,
  error,
  submitting,
  submitLabel,
  submitTestId = "submit",
  children,
}: {
  onSubmit: (e?: FormEvent) => unknown;
  error?: string;
  submitting: boolean;
  submitLabel: string;
  submitTestId?: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <FormError message={error} />
        {children}
        <Button type="submit" fullWidth size="md" loading={submitting} data-testid={submitTestId}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

/** Phone number and the SMS code sent to it. */
export function PhoneCodeFields({
  field,
  onSend,
}: {
  field: FieldOf<"phone" | "code">;
  onSend: SmsCodeInputProps["onSend"];
}) {
  const { t } = useTranslation("auth");
  return (
    <>
      <TextInput
        label={t("phone")}
        placeholder={t("phonePlaceholder")}
        inputMode="tel"
        autoComplete="tel"
        {...field("phone")}
      />
      <SmsCodeInput label={t("code")} onSend={onSend} {...field("code")} />
    </>
  );
}

/** Username, password and confirmation of a new account (sign-up, operator setup). */
export function AccountFields({ field }: { field: FieldOf<"username" | "password" | "confirmPassword"> }) {
  const { t } = useTranslation("auth");
  return (
    <>
      <TextInput
        label={t("username")}
        description={t("usernameRules")}
        autoComplete="username"
        {...field("username")}
      />
      <PasswordInput
        label={t("password")}
        description={t("passwordRules")}
        autoComplete="new-password"
        {...field("password")}
      />
      <PasswordInput label={t("confirmPassword")} autoComplete="new-password" {...field("confirmPassword")} />
    </>
  );
}
