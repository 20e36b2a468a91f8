import { PasswordInput, Text, TextInput } from "@mantine/core";
import { SignInByPasswordRequest, SignInBySmsRequest } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { useSignIn } from "../api/sign-in.ts";
import { AuthForm, AuthPage, AuthTabs, PhoneCodeFields, useAuthForm } from "./auth-form.tsx";
import { useSmsSender } from "./use-sms-sender.ts";

function PasswordSignIn({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("auth");
  const signIn = useSignIn();
  const { field, props } = useAuthForm(SignInByPasswordRequest, { username: "", password: "" }, async (values) => {
    await signIn.mutateAsync({ kind: "password", ...values });
    onDone();
  });
  return (
    <AuthForm {...props} submitLabel={t("signIn.submit")}>
      <TextInput
        label={t("username")}
        placeholder={t("usernamePlaceholder")}
        autoComplete="username"
        {...field("username")}
      />
      <PasswordInput label={t("password")} autoComplete="current-password" {...field("password")} />
    </AuthForm>
  );
}

function SmsSignIn({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("auth");
  const signIn = useSignIn();
  const { form, field, props } = useAuthForm(SignInBySmsRequest, { phone: "", code: "" }, async (values) => {
    await signIn.mutateAsync({ kind: "sms", ...values });
    onDone();
  });
  const send = useSmsSender(form, "phone", "signin");
  return (
    <AuthForm {...props} submitLabel={t("signIn.submit")}>
      <PhoneCodeFields field={field} onSend={send} />
    </AuthForm>
  );
}

export function SignInPage() {
  const { t } = useTranslation("auth");
  return (
    <AuthPage
      title={t("signIn.title")}
      other="/signup"
      question={t("signIn.noAccount")}
      otherLabel={t("signIn.toSignUp")}
    >
      {(onDone) => (
        <>
          <AuthTabs
            tabs={[
              {
                value: "password",
                testId: "tab-password",
                label: t("signIn.byPassword"),
                panel: <PasswordSignIn onDone={onDone} />,
              },
              { value: "sms", testId: "tab-sms", label: t("signIn.bySms"), panel: <SmsSignIn onDone={onDone} /> },
            ]}
          />
          <Text size="xs" c="dimmed" ta="center">
            {t("signIn.smsHint")}
          </Text>
        </>
      )}
    </AuthPage>
  );
}
