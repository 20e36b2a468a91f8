import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Center, Loader, Stack, TextInput } from "@mantine/core";
import { SetupRequest } from "@moonport/contracts";
import { IconCircleCheck } from "@tabler/icons-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { z } from "zod";
import { FormError } from "../../../components/form-error.tsx";
import { PageMeta } from "../../../components/page-meta.tsx";
import { useApplyApiError, useFieldMessage } from "../../../lib/forms.ts";
import { useSetup, useSetupStatus } from "../api/setup.ts";
import { AccountFields, AuthForm } from "./auth-form.tsx";
import { AuthLayout } from "./auth-layout.tsx";

/** /setup?token=…: creates the operator account with the one-time link printed at first start. */
export function SetupPage() {
  const { t } = useTranslation("auth");
  const msg = useFieldMessage();
  const applyApiError = useApplyApiError();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const status = useSetupStatus();
  const setup = useSetup();
  const [formError, setFormError] = useState<string>();
  const form = useForm<z.input<typeof SetupRequest>, unknown, z.output<typeof SetupRequest>>({
    resolver: zodResolver(SetupRequest),
    defaultValues: { token: params.get("token") ?? "", username: "", password: "", confirmPassword: "" },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      await setup.mutateAsync(values);
      navigate("/console", { replace: true });
    } catch (error) {
      setFormError(
        applyApiError(error, form.setError, ["token", "username", "password", "confirmPassword"], (reason) =>
          t("setup.failed", { reason }),
        ),
      );
    }
  });

  let body: React.ReactNode;
  if (status.isPending) {
    body = (
      <Center py="xl">
        <Loader type="dots" />
      </Center>
    );
  } else if (status.isError) {
    body = <FormError message={status.error.message} />;
  } else if (status.data.operatorExists) {
    body = (
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} title={t("setup.doneTitle")}>
        <Stack gap="sm" align="flex-start">
          {t("setup.doneText")}
          <Button component={Link} to="/signin" size="xs" variant="light" color="teal">
            {t("signIn.submit")}
          </Button>
        </Stack>
      </Alert>
    );
  } else {
    body = (
      <AuthForm
        onSubmit={submit}
        error={formError}
        submitting={form.formState.isSubmitting}
        submitLabel={t("setup.submit")}
      >
        {params.get("token") ? null : (
          <TextInput
            label={t("setup.token")}
            description={t("setup.tokenHint")}
            error={msg(errors.token?.message)}
            {...form.register("token")}
          />
        )}
        {params.get("token") && errors.token ? <FormError message={msg(errors.token.message)} /> : null}
        <AccountFields field={(name) => ({ ...form.register(name), error: msg(errors[name]?.message) })} />
      </AuthForm>
    );
  }

  return (
    <AuthLayout title={t("setup.title")} subtitle={t("setup.subtitle")}>
      <PageMeta title={t("setup.title")} />
      {body}
    </AuthLayout>
  );
}
