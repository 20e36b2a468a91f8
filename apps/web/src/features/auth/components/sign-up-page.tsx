import { zodResolver } from "@hookform/resolvers/zod";
import { Anchor, Button, PasswordInput, Stack, Tabs, TextInput } from "@mantine/core";
import { SignUpByPasswordRequest, SignUpByPhoneRequest } from "@moonport/contracts";
import { useState } from "react";
import { type UseFormReturn, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, Navigate } from "react-router";
import type { z } from "zod";
import { FormError } from "../../../components/form-error.tsx";
import { PageMeta } from "../../../components/page-meta.tsx";
import { SmsCodeInput } from "../../../components/sms-code-input.tsx";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import { useSignedIn } from "../../../lib/session.ts";
import { useSignUp } from "../api/sign-up.ts";
import { useAuthReturn } from "../hooks/use-auth-return.ts";
import { AuthLayout } from "./auth-layout.tsx";
import { useSmsSender } from "./use-sms-sender.ts";

type PasswordFields = { username: string; password: string; confirmPassword: string };

/** Username, password and confirmation: the part both sign-up forms share. */
function AccountFields<T extends PasswordFields>({ form }: { form: UseFormReturn<T, unknown, unknown> }) {
  const { t } = useTranslation("auth");
  const msg = useFieldMessage();
  const f = form as unknown as UseFormReturn<PasswordFields, unknown, unknown>;
  const errors = f.formState.errors;
  return (
    <>
      <TextInput
        label={t("username")}
        description={t("usernameRules")}
        autoComplete="username"
        error={msg(errors.username?.message)}
        {...f.register("username")}
      />
      <PasswordInput
        label={t("password")}
        description={t("passwordRules")}
        autoComplete="new-password"
        error={msg(errors.password?.message)}
        {...f.register("password")}
      />
      <PasswordInput
        label={t("confirmPassword")}
        autoComplete="new-password"
        error={msg(errors.confirmPassword?.message)}
        {...f.register("confirmPassword")}
      />
    </>
  );
}

function PhoneSignUp({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("auth");
  const msg = useFieldMessage();
  const applyApiError = useApplyApiError();
  const signUp = useSignUp();
  const [formError, setFormError] = useState<string>();
  const form = useForm<z.input<typeof SignUpByPhoneRequest>, unknown, z.output<typeof SignUpByPhoneRequest>>({
    resolver: zodResolver(SignUpByPhoneRequest),
    defaultValues: { phone: "", code: "", username: "", password: "", confirmPassword: "" },
  });
  const send = useSmsSender(form, "phone", "signup");
  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await signUp.mutateAsync({ kind: "phone", ...values });
      onDone();
    } catch (error) {
      setFormError(
        applyApiError(error, form.setError, ["phone", "code", "username", "password", "confirmPassword"], (reason) =>
          t("signUp.failed", { reason }),
        ),
      );
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormError message={formError} />
        <TextInput
          label={t("phone")}
          placeholder={t("phonePlaceholder")}
          inputMode="tel"
          autoComplete="tel"
          error={msg(form.formState.errors.phone?.message)}
          {...form.register("phone")}
        />
        <SmsCodeInput
          label={t("code")}
          onSend={send}
          error={msg(form.formState.errors.code?.message)}
          {...form.register("code")}
        />
        <AccountFields form={form} />
        <Button type="submit" fullWidth size="md" loading={form.formState.isSubmitting} data-testid="submit">
          {t("signUp.submit")}
        </Button>
      </Stack>
    </form>
  );
}

function PasswordSignUp({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("auth");
  const applyApiError = useApplyApiError();
  const signUp = useSignUp();
  const [formError, setFormError] = useState<string>();
  const form = useForm<z.input<typeof SignUpByPasswordRequest>, unknown, z.output<typeof SignUpByPasswordRequest>>({
    resolver: zodResolver(SignUpByPasswordRequest),
    defaultValues: { username: "", password: "", confirmPassword: "" },
  });
  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await signUp.mutateAsync({ kind: "password", ...values });
      onDone();
    } catch (error) {
      setFormError(
        applyApiError(error, form.setError, ["username", "password", "confirmPassword"], (reason) =>
          t("signUp.failed", { reason }),
        ),
      );
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormError message={formError} />
        <AccountFields form={form} />
        <Button type="submit" fullWidth size="md" loading={form.formState.isSubmitting} data-testid="submit">
          {t("signUp.submit")}
        </Button>
      </Stack>
    </form>
  );
}

export function SignUpPage() {
  const { t } = useTranslation("auth");
  const { next, onDone, otherHref: signInHref } = useAuthReturn("/signin");
  // Already signed in (e.g. a bookmarked sign-in page): go straight on. (Asked without /api/me, whose 401 for
  // every visitor would be a console error.)
  if (useSignedIn()) return <Navigate to={next} replace />;
  return (
    <AuthLayout
      title={t("signUp.title")}
      subtitle={
        <>
          {t("signUp.haveAccount")}{" "}
          <Anchor component={Link} to={signInHref} fw={500}>
            {t("signUp.toSignIn")}
          </Anchor>
        </>
      }
    >
      <PageMeta title={t("signUp.title")} />
      <Tabs defaultValue="phone" keepMounted={false}>
        <Tabs.List grow mb="lg">
          <Tabs.Tab value="phone" data-testid="tab-phone">
            {t("signUp.byPhone")}
          </Tabs.Tab>
          <Tabs.Tab value="password" data-testid="tab-username">
            {t("signUp.byUsername")}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="phone">
          <PhoneSignUp onDone={onDone} />
        </Tabs.Panel>
        <Tabs.Panel value="password">
          <PasswordSignUp onDone={onDone} />
        </Tabs.Panel>
      </Tabs>
    </AuthLayout>
  );
}
