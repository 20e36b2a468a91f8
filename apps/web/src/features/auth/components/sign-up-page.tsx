import { SignUpByPasswordRequest, SignUpByPhoneRequest } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import { useSignUp } from "../api/sign-up.ts";
import { AccountFields, AuthForm, AuthPage, AuthTabs, PhoneCodeFields, useAuthForm } from "./auth-form.tsx";
import { useSmsSender } from "./use-sms-sender.ts";

const ACCOUNT = { username: "", password: "", confirmPassword: "" };

function PhoneSignUp({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("auth");
  const signUp = useSignUp();
  const { form, field, props } = useAuthForm(
    SignUpByPhoneRequest,
    { phone: "", code: "", ...ACCOUNT },
    async (values) => {
      await signUp.mutateAsync({ kind: "phone", ...values });
      onDone();
    },
    (reason) => t("signUp.failed", { reason }),
  );
  const send = useSmsSender(form, "phone", "signup");
  return (
    <AuthForm {...props} submitLabel={t("signUp.submit")}>
      <PhoneCodeFields field={field} onSend={send} />
      <AccountFields field={field} />
    </AuthForm>
  );
}

function PasswordSignUp({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("auth");
  const signUp = useSignUp();
  const { field, props } = useAuthForm(
    SignUpByPasswordRequest,
    ACCOUNT,
    async (values) => {
      await signUp.mutateAsync({ kind: "password", ...values });
      onDone();
    },
    (reason) => t("signUp.failed", { reason }),
  );
  return (
    <AuthForm {...props} submitLabel={t("signUp.submit")}>
      <AccountFields field={field} />
    </AuthForm>
  );
}

export function SignUpPage() {
  const { t } = useTranslation("auth");
  return (
    <AuthPage
      title={t("signUp.title")}
      other="/signin"
      question={t("signUp.haveAccount")}
      otherLabel={t("signUp.toSignIn")}
    >
      {(onDone) => (
        <AuthTabs
          tabs={[
            { value: "phone", testId: "tab-phone", label: t("signUp.byPhone"), panel: <PhoneSignUp onDone={onDone} /> },
            {
              value: "password",
              testId: "tab-username",
              label: t("signUp.byUsername"),
              panel: <PasswordSignUp onDone={onDone} />,
            },
          ]}
        />
      )}
    </AuthPage>
  );
}
