import {
  Alert,
  Box,
  Button,
  Card,
  Checkbox,
  Container,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  type TextInputProps,
  ThemeIcon,
  Title,
} from "@mantine/core";
import {
  type ContactSalesReceipt,
  ContactSalesRequest,
  EVALUATION_STAGES,
  SALES_TOPICS,
  SECTORS,
  SUPPORT_LABELS,
} from "@moonport/contracts";
import { IconBuildingSkyscraper, IconCircleCheck, IconGauge, IconHeadset, IconServer2 } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormSelect } from "../../../components/console-kit/form-select.tsx";
import { useZodForm } from "../../../components/console-kit/use-zod-form.ts";
import { PageMeta } from "../../../components/page-meta.tsx";
import classes from "../../../components/site-frame.module.css";
import { SiteFooter, SiteHeader } from "../../../components/site-frame.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { useBrand } from "../../../lib/site-config.ts";
import { useSignedInOrganization, useSubmitContactSales } from "../api/contact-sales.ts";

const POINTS = [
  { key: "limits", icon: IconGauge },
  { key: "contract", icon: IconBuildingSkyscraper },
  { key: "deploy", icon: IconServer2 },
  { key: "support", icon: IconHeadset },
] as const;

/** `/contact-sales` (docs/product-spec.md §2: a top-navbar page without a sidebar), prerendered in both locales. */
export function ContactSalesPage() {
  const { t } = useTranslation("support");
  const brand = useBrand();
  const [receipt, setReceipt] = useState<{ r: ContactSalesReceipt; email: string }>();
  return (
    <Box>
      <PageMeta title={t("contact.metaTitle")} description={t("contact.metaDescription", { brand })} />
      <SiteHeader />
      <main>
        <Container size="lg" py={{ base: 32, sm: 64 }}>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} verticalSpacing={32}>
            <Stack gap="lg">
              <Text fw={600} c="indigo.7" tt="uppercase" size="sm">
                {t("contact.eyebrow")}
              </Text>
              <Title order={1}>{t("contact.title")}</Title>
              <Text size="lg" className={classes.muted}>
                {t("contact.subtitle")}
              </Text>
              <Stack gap="md" mt="sm">
                {POINTS.map(({ key, icon: Icon }) => (
                  <Group key={key} gap="sm" wrap="nowrap" align="flex-start">
                    <ThemeIcon variant="light" color="indigo" radius="md" size={32}>
                      <Icon size={18} stroke={1.8} />
                    </ThemeIcon>
                    <Text pt={4}>{t(`contact.points.${key}`)}</Text>
                  </Group>
                ))}
              </Stack>
            </Stack>
            <Box>
              {receipt ? (
                <Sent receipt={receipt.r} email={receipt.email} onAnother={() => setReceipt(undefined)} />
              ) : (
                <ContactSalesForm onSent={(r, email) => setReceipt({ r, email })} />
              )}
            </Box>
          </SimpleGrid>
        </Container>
      </main>
      <SiteFooter />
    </Box>
  );
}

function Sent({ receipt, email, onAnother }: { receipt: ContactSalesReceipt; email: string; onAnother: () => void }) {
  const { t } = useTranslation("support");
  return (
    <Card withBorder radius="md" padding="xl" data-testid="contact-sent">
      <Stack gap="md" align="flex-start">
        <ThemeIcon color="teal" variant="light" radius="xl" size={48}>
          <IconCircleCheck size={28} />
        </ThemeIcon>
        <Title order={2} size="h3">
          {t("contact.sent.title")}
        </Title>
        <Text>{t("contact.sent.text", { email, id: receipt.id })}</Text>
        <Button variant="default" onClick={onAnother}>
          {t("contact.sent.another")}
        </Button>
      </Stack>
    </Card>
  );
}

function ContactSalesForm({ onSent }: { onSent: (r: ContactSalesReceipt, email: string) => void }) {
  const { t } = useTranslation("support");
  const locale = useLocale();
  const submitLead = useSubmitContactSales();
  const signedIn = useSignedInOrganization();
  // The page is prerendered: until React has hydrated it, a click would submit the bare HTML form (a GET with every
  // field in the URL). The button waits for hydration instead.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const { form, field, error, onSubmit, formError } = useZodForm(ContactSalesRequest, {
    defaultValues: { tier5: false, organizationId: "", expectedTpm: "", additionalInfo: "" },
  });
  // A signed-in visitor's organization is known: fill it in (they can still change it).
  useEffect(() => {
    const org = signedIn.data;
    if (!org) return;
    if (!form.getValues("organizationId")) form.setValue("organizationId", org.orgId);
    if (org.tier5) form.setValue("tier5", true);
    if (org.certified) form.setValue("enterpriseCertified", true);
  }, [signedIn.data, form]);
  const certified = signedIn.data?.certified === true;

  const submit = onSubmit(
    async (values) => {
      const r = await submitLead.mutateAsync(values);
      onSent(r, values.email);
    },
    (reason) => t("contact.failed", { reason }),
  );
  const options = <K extends keyof typeof SUPPORT_LABELS>(kind: K, values: readonly string[]) =>
    values.map((v) => ({
      value: v,
      label: (SUPPORT_LABELS[kind] as Record<string, Record<string, string>>)[v]![locale]!,
    }));
  const select = (
    name: "topic" | "industry" | "stage",
    kind: "topic" | "industry" | "stage",
    values: readonly string[],
  ) => (
    <FormSelect
      control={form.control}
      name={name}
      label={t(`contact.fields.${name}`)}
      placeholder={t("contact.fields.choose")}
      data={options(kind, values)}
      error={error(name)}
      withAsterisk
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      data-testid={`contact-${name}`}
    />
  );

  /** A one-line answer labelled by its name; `props` say how the browser may fill it in. */
  const shortText = (
    name: "name" | "phone" | "email" | "company" | "organizationId" | "expectedTpm",
    props: TextInputProps,
  ) => <TextInput label={t(`contact.fields.${name}`)} {...props} {...field(name)} data-testid={`contact-${name}`} />;

  /** A free-text answer; the required ones carry a hint of what to write. */
  const longText = (name: "background" | "problem" | "additionalInfo", minRows: number, required: boolean) => (
    <Textarea
      label={t(`contact.fields.${name}`)}
      description={required ? t(`contact.fields.${name}Hint`) : undefined}
      autosize
      minRows={minRows}
      withAsterisk={required}
      {...field(name)}
      data-testid={`contact-${name}`}
    />
  );

  return (
    <Card withBorder radius="md" padding="xl" component="form" method="post" onSubmit={submit} noValidate>
      <Stack gap="xl">
        {signedIn.data ? (
          <Alert variant="light" color="indigo" data-testid="contact-prefilled">
            {t("contact.prefilled")}
          </Alert>
        ) : null}
        {select("topic", "topic", SALES_TOPICS)}
        <Stack gap="sm">
          <Text fw={600}>{t("contact.sections.you")}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {shortText("name", { autoComplete: "name", withAsterisk: true })}
            {shortText("phone", { type: "tel", autoComplete: "tel", withAsterisk: true })}
          </SimpleGrid>
          {shortText("email", { type: "email", autoComplete: "email", withAsterisk: true })}
        </Stack>
        <Stack gap="sm">
          <Text fw={600}>{t("contact.sections.company")}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {shortText("company", { autoComplete: "organization", withAsterisk: true })}
            {select("industry", "industry", SECTORS)}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {select("stage", "stage", EVALUATION_STAGES)}
            {certified ? (
              <Text size="sm" pt={{ base: 0, sm: 28 }} data-testid="contact-certified">
                {t("contact.certified")}
              </Text>
            ) : (
              <Controller
                control={form.control}
                name="enterpriseCertified"
                render={({ field: f }) => (
                  <Select
                    label={t("contact.fields.enterpriseCertified")}
                    placeholder={t("contact.fields.choose")}
                    data={[
                      { value: "yes", label: t("contact.yes") },
                      { value: "no", label: t("contact.no") },
                    ]}
                    value={f.value === undefined ? null : f.value ? "yes" : "no"}
                    onChange={(v) => f.onChange(v === null ? undefined : v === "yes")}
                    onBlur={f.onBlur}
                    error={error("enterpriseCertified")}
                    withAsterisk
                    allowDeselect={false}
                    data-testid="contact-enterpriseCertified"
                  />
                )}
              />
            )}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {shortText("organizationId", { description: t("contact.fields.organizationIdHint") })}
            {shortText("expectedTpm", { description: t("contact.fields.expectedTpmHint"), inputMode: "numeric" })}
          </SimpleGrid>
          <Controller
            control={form.control}
            name="tier5"
            render={({ field: f }) => (
              <Checkbox
                label={t("contact.fields.tier5")}
                checked={Boolean(f.value)}
                onChange={(e) => f.onChange(e.currentTarget.checked)}
                data-testid="contact-tier5"
              />
            )}
          />
        </Stack>
        <Stack gap="sm">
          <Text fw={600}>{t("contact.sections.needs")}</Text>
          {longText("background", 3, true)}
          {longText("problem", 3, true)}
          {longText("additionalInfo", 2, false)}
        </Stack>
        {formError ? (
          <Alert color="red" variant="light" data-testid="contact-error">
            {formError}
          </Alert>
        ) : null}
        <Group justify="space-between" align="center">
          <Text size="sm" className={classes.muted}>
            {t("contact.privacy")}
          </Text>
          <Button
            type="submit"
            color="indigo.7"
            disabled={!hydrated}
            loading={form.formState.isSubmitting}
            data-testid="contact-submit"
          >
            {t("contact.submit")}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
