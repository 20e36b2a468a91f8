import { Button, Group, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import {
  CompanyVerificationRequest,
  companyVerificationProblems,
  type Edition,
  type FieldProblem,
  PersonalVerificationRequest,
  personalVerificationProblems,
} from "@moonport/contracts";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { useZodForm } from "../../../components/console-kit/use-zod-form.ts";
import { FormError } from "../../../components/form-error.tsx";
import { useApplyCompany, useApplyPersonal } from "../api/verification.ts";

/**
 * The contracts' request schema plus the edition's checks (ID checksum, USCC check character, passport fields),
 * so the form refuses what the server would, with the same message keys, before anything is sent.
 */
function withEditionChecks<T extends z.ZodObject>(schema: T, problems: (v: z.infer<T>) => FieldProblem[]) {
  return schema.superRefine((value, ctx) => {
    for (const p of problems(value as z.infer<T>)) ctx.addIssue({ code: "custom", path: [p.path], message: p.message });
  });
}

/**
 * "Authentication failed: {reason}" (§8). The server's verification errors already read that way, so only a
 * reason without the prefix (a network error) is wrapped.
 */
export function useAuthFailure() {
  const { t } = useTranslation("org");
  return (reason: string) => {
    const wrapped = t("auth.failed", { reason: "" });
    return reason.startsWith(wrapped.trim()) ? reason : t("auth.failed", { reason });
  };
}

/** Personal verification: real name and mainland ID number (cn), or passport-style fields (global). */
export function PersonalForm({ orgId, edition }: { orgId: string; edition: Edition }) {
  const { t } = useTranslation("org");
  const apply = useApplyPersonal(orgId);
  const failure = useAuthFailure();
  const schema = useMemo(
    () => withEditionChecks(PersonalVerificationRequest, (v) => personalVerificationProblems(edition, v, new Date())),
    [edition],
  );
  const { form, field, onSubmit, formError } = useZodForm(schema, {
    defaultValues: { realName: "", idNumber: "", nationality: "", dateOfBirth: "", documentExpiry: "" },
  });
  const submit = onSubmit(async (values) => {
    await apply.mutateAsync(edition === "cn" ? { realName: values.realName, idNumber: values.idNumber } : values);
  }, failure);
  const global = edition === "global";
  return (
    <form onSubmit={submit} noValidate data-testid="personal-form">
      <Stack>
        <Text size="sm" c="dimmed">
          {t(`auth.personal.intro.${edition}`)}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t(`auth.personal.realName.${edition}`)}
            withAsterisk
            autoComplete="name"
            {...field("realName")}
          />
          <TextInput
            label={t(`auth.personal.idNumber.${edition}`)}
            withAsterisk
            autoComplete="off"
            placeholder={global ? undefined : "11010519491231002X"}
            {...field("idNumber")}
          />
          {global ? (
            <>
              <TextInput
                label={t("auth.personal.nationality")}
                description={t("auth.personal.nationalityHint")}
                withAsterisk
                maxLength={2}
                {...field("nationality")}
              />
              <TextInput label={t("auth.personal.dateOfBirth")} withAsterisk type="date" {...field("dateOfBirth")} />
              <TextInput
                label={t("auth.personal.documentExpiry")}
                withAsterisk
                type="date"
                {...field("documentExpiry")}
              />
            </>
          ) : null}
        </SimpleGrid>
        <FormError message={formError} />
        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t("auth.personal.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Company verification (the upgrade of a personal one): company name, credit code, bank account name, bank name
 * and account number (digits only); the organization id and the applicant's user id go on record with it.
 */
export function CompanyForm({ orgId, edition, userId }: { orgId: string; edition: Edition; userId: string }) {
  const { t } = useTranslation("org");
  const apply = useApplyCompany(orgId);
  const failure = useAuthFailure();
  const schema = useMemo(
    () => withEditionChecks(CompanyVerificationRequest, (v) => companyVerificationProblems(edition, v)),
    [edition],
  );
  const { form, field, onSubmit, formError } = useZodForm(schema, {
    defaultValues: { companyName: "", creditCode: "", bankAccountName: "", bankName: "", bankAccountNumber: "" },
  });
  const submit = onSubmit(async (values) => {
    await apply.mutateAsync(values);
  }, failure);
  return (
    <form onSubmit={submit} noValidate data-testid="company-form">
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t("auth.company.companyName")}
            withAsterisk
            autoComplete="organization"
            {...field("companyName")}
          />
          <TextInput
            label={t(`auth.company.creditCode.${edition}`)}
            withAsterisk
            autoComplete="off"
            {...field("creditCode")}
          />
          <TextInput label={t("auth.company.bankAccountName")} withAsterisk {...field("bankAccountName")} />
          <TextInput label={t("auth.company.bankName")} withAsterisk {...field("bankName")} />
          <TextInput
            label={t("auth.company.bankAccountNumber")}
            description={t("auth.company.digitsOnly")}
            withAsterisk
            inputMode="numeric"
            autoComplete="off"
            {...field("bankAccountNumber")}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t("auth.company.onRecord", { orgId, userId })}
        </Text>
        <FormError message={formError} />
        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t("auth.company.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
