import { zodResolver } from "@hookform/resolvers/zod";
import { Anchor, Button, PasswordInput, Stack, Tabs, Text, TextInput } from "@mantine/core";
import { SignInByPasswordRequest, SignInBySmsRequest } from "@moonport/contracts";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, Navigate } from "react-router";
import type { z } from "zod";
import { FormError } from "../../../components/form-error.tsx";
import { PageMeta } from "../../../components/page-meta.tsx";
import { SmsCodeInput } from "../../../components/sms-code-input.tsx";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import { useSignedIn } from "../../../lib/session.ts";
import { useSignIn } from "../api/sign-in.ts";
import { useAuthReturn } from "../hooks/use-auth-return.ts";
import { AuthLayout } from "./auth-layout.tsx";
import { useSmsSender } from "./use-sms-sender.ts";

function PasswordSignIn({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("auth");
  const msg = useFieldMessage();
  const applyApiError = useApplyApiError();
  const signIn = useSignIn();
  const [formError, setFormError] = useState<string>();
  const form = useForm<z.input<typeof SignInByPasswordRequest>, unknown, z.output<typeof SignInByPasswordRequest>>({
    resolver: zodResolver(SignInByPasswordRequest),
    defaultValues: { username: "", password: "" },
  });
  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await signIn.mutateAsync({ kind: "password", ...values });
      onDone();
    } catch (error) {
      setFormError(applyApiError(error, form.setError, ["username", "password"]));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormError message={formError} />
        <TextInput
          label={t("username")}
          placeholder={t("usernamePlaceholder")}
          autoComplete="username"
          error={msg(form.formState.errors.username?.message)}
          {...form.register("username")}
        />
        <PasswordInput
          label={t("password")}
          autoComplete="current-password"
          error={msg(form.formState.errors.password?.message)}
          {...form.register("password")}
        />
        <Button type="submit" fullWidth size="md" loading={form.formState.isSubmitting} data-testid="submit">
          {t("signIn.submit")}
        </Button>
      </Stack>
    </form>
  );
}

function SmsSignIn({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("auth");
  const msg = useFieldMessage();
  const applyApiError = useApplyApiError();
  const signIn = useSignIn();
  const [formError, setFormError] = useState<string>();
  const form = useForm<z.input<typeof SignInBySmsRequest>, unknown, z.output<typeof SignInBySmsRequest>>({
    resolver: zodResolver(SignInBySmsRequest),
    defaultValues: { phone: "", code: "" },
  });
  const send = useSmsSender(form, "phone", "signin");
  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await signIn.mutateAsync({ kind: "sms", ...values });
      onDone();
    } catch (error) {
      setFormError(applyApiError(error, form.setError, ["phone", "code"]));
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
        <Button type="submit" fullWidth size="md" loading={form.formState.isSubmitting} data-testid="submit">
          {t("signIn.submit")}
        </Button>
      </Stack>
    </form>
  );
}

export function SignInPage() {
  const { t } = useTranslation("auth");
  const { next, onDone, otherHref: signUpHref } = useAuthReturn("/signup");
  // Already signed in (e.g. a bookmarked sign-in page): go straight on. (Asked without /api/me, whose 401 for
  // every visitor would be a console error.)
  if (useSignedIn()) return <Navigate to={next} replace />;
  return (
    <AuthLayout
      title={t("signIn.title")}
      subtitle={
        <>
          {t("signIn.noAccount")}{" "}
          <Anchor component={Link} to={signUpHref} fw={500}>
            {t("signIn.toSignUp")}
          </Anchor>
        </>
      }
    >
      <PageMeta title={t("signIn.title")} />
      <Tabs defaultValue="password" keepMounted={false}>
        <Tabs.List grow mb="lg">
          <Tabs.Tab value="password" data-testid="tab-password">
            {t("signIn.byPassword")}
          </Tabs.Tab>
          <Tabs.Tab value="sms" data-testid="tab-sms">
            {t("signIn.bySms")}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="password">
          <PasswordSignIn onDone={onDone} />
        </Tabs.Panel>
        <Tabs.Panel value="sms">
          <SmsSignIn onDone={onDone} />
        </Tabs.Panel>
      </Tabs>
      <Text size="xs" c="dimmed" ta="center">
        {t("signIn.smsHint")}
      </Text>
    </AuthLayout>
  );
}
