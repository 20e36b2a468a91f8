import { Alert, Badge, Button, Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import type { OrgGeneral, VerificationApplication, VerificationStatus } from "@moonport/contracts";
import { IconCheck, IconDownload, IconLock, IconShieldCheck } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useConsoleUser } from "../../../components/console-kit/console-user.ts";
import { CopyField } from "../../../components/console-kit/copy-field.tsx";
import { ConfirmDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { filingLetterUrl, useCancelCompanyChange, verificationQuery } from "../api/verification.ts";
import { CompanyForm, PersonalForm } from "./verification-forms.tsx";

type State = OrgGeneral["verification"];
const COLOR = { unverified: "gray", personal: "teal", company: "indigo", company_changing: "yellow" } as const;

/**
 * What each state unlocks (docs/product-spec.md §6): invoicing needs any verification, corporate transfer a company.
 */
const UNLOCKS: { key: string; unlocked: (s: State) => boolean }[] = [
  { key: "invoicing", unlocked: (s) => s !== "unverified" },
  { key: "transfer", unlocked: (s) => s === "company" },
  { key: "filing", unlocked: (s) => s === "company" },
];

/**
 * Organization verification (Organization → Authentication). Everyone sees the state and what it unlocks; only
 * organization admins read the applications and act (the API answers admins only: the details hold ID and bank
 * numbers, masked to their last 4 characters).
 */
export function AuthenticationPanel({ org }: { org: OrgGeneral }) {
  const { t } = useTranslation("org");
  return (
    <Stack gap="lg" maw={760}>
      <Card withBorder padding="lg">
        <Stack>
          <Group gap="sm">
            <ThemeIcon variant="light" size="lg" radius="xl">
              <IconShieldCheck size={20} />
            </ThemeIcon>
            <Title order={5}>{t("auth.title")}</Title>
            <Badge color={COLOR[org.verification]} variant="light" data-testid="verification-status">
              {t(`auth.status.${org.verification}`)}
            </Badge>
          </Group>
          <Text size="sm">{t(`auth.explain.${org.verification}`)}</Text>
          <List spacing={4} size="sm" data-testid="verification-unlocks">
            {UNLOCKS.map((u) => {
              const on = u.unlocked(org.verification);
              return (
                <List.Item
                  key={u.key}
                  icon={
                    <ThemeIcon size={18} radius="xl" variant="light" color={on ? "teal" : "gray"}>
                      {on ? <IconCheck size={12} /> : <IconLock size={12} />}
                    </ThemeIcon>
                  }
                >
                  <Text span size="sm" c={on ? undefined : "dimmed"}>
                    {t(`auth.unlocks.${u.key}`)}
                  </Text>
                </List.Item>
              );
            })}
          </List>
          {org.role !== "admin" ? (
            <Text size="sm" c="dimmed" data-testid="verification-read-only">
              {t("auth.adminOnly")}
            </Text>
          ) : null}
        </Stack>
      </Card>
      {org.role === "admin" ? <VerificationActions org={org} /> : null}
    </Stack>
  );
}

function VerificationActions({ org }: { org: OrgGeneral }) {
  const { t } = useTranslation("org");
  const me = useConsoleUser();
  const status = useQuery(verificationQuery(org.id));
  if (status.isPending) return <LoadingBlock rows={4} />;
  if (status.isError) return <LoadError error={status.error} onRetry={() => status.refetch()} />;
  const s = status.data;
  const latest = s.applications[0];
  const onRecord = (kind: "personal" | "company") =>
    s.applications.find((a) => a.kind === kind && a.status === "approved");
  const personal = onRecord("personal");
  const company = onRecord("company");
  const pending = s.applications.find((a) => a.status === "pending");
  return (
    <>
      {latest?.status === "rejected" ? (
        <Alert color="red" variant="light" title={t("auth.rejectedTitle")} data-testid="verification-rejected">
          {t("auth.failed", { reason: latest.rejectReason ?? t("failure.tryLater") })}
        </Alert>
      ) : null}
      {s.state === "unverified" ? (
        <Section title={t("auth.personal.title")}>
          <PersonalForm orgId={org.id} edition={org.edition} />
        </Section>
      ) : null}
      {s.state === "company" && company ? (
        <Section title={t("auth.company.onRecordTitle")}>
          <Details app={company} org={org} />
        </Section>
      ) : null}
      {s.state === "company_changing" && pending ? <PendingCompany org={org} app={pending} /> : null}
      {s.state === "personal" ? (
        <Section title={t("auth.company.upgradeTitle")} description={t("auth.company.upgradeText")}>
          <CompanyForm orgId={org.id} edition={org.edition} userId={me.id} />
        </Section>
      ) : null}
      {personal && s.state !== "unverified" ? (
        <Section title={t("auth.personal.onRecordTitle")}>
          <Details app={personal} org={org} />
        </Section>
      ) : null}
      <FilingCard orgId={org.id} status={s} currency={org.currency} />
    </>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Stack>
        <div>
          <Title order={5}>{title}</Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Card>
  );
}

/** The order the form asks in (stored details come back in the database's key order). */
const FIELD_ORDER = [
  "realName",
  "idNumber",
  "nationality",
  "dateOfBirth",
  "documentExpiry",
  "companyName",
  "creditCode",
  "bankAccountName",
  "bankName",
  "bankAccountNumber",
];
const MASKED = new Set(["idNumber", "bankAccountNumber"]);

/** The details of an application as the API returns them (numbers masked), with the organization and creator id. */
function Details({ app, org }: { app: VerificationApplication; org: OrgGeneral }) {
  const { t } = useTranslation("org");
  const locale = useLocale();
  const orgId = org.id;
  const label = (k: string) =>
    k === "idNumber"
      ? t(`auth.personal.idNumber.${org.edition}`)
      : k === "creditCode"
        ? t(`auth.company.creditCode.${org.edition}`)
        : t(`auth.field.${k}`, { defaultValue: k });
  const rows = [
    ...Object.entries(app.details)
      .sort(([a], [b]) => FIELD_ORDER.indexOf(a) - FIELD_ORDER.indexOf(b))
      .map(([k, v]) => ({ label: label(k), value: v, mono: MASKED.has(k) })),
    { label: t("auth.field.createdAt"), value: formatDateTime(app.createdAt, locale), mono: false },
  ];
  return (
    <Stack gap="sm" data-testid={`verification-details-${app.kind}`}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {rows.map((r) => (
          <div key={r.label}>
            <Text size="xs" c="dimmed">
              {r.label}
            </Text>
            <Text size="sm" ff={r.mono ? "monospace" : undefined} style={{ overflowWrap: "anywhere" }}>
              {r.value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <div>
          <Text size="xs" c="dimmed" mb={4}>
            {t("general.id")}
          </Text>
          <CopyField value={orgId} />
        </div>
        <div>
          <Text size="xs" c="dimmed" mb={4}>
            {t("auth.field.createdBy")}
          </Text>
          <CopyField value={app.createdBy} />
        </div>
      </SimpleGrid>
    </Stack>
  );
}

/** A company application under review: its details and cancelling the change (back to personal). */
function PendingCompany({ org, app }: { org: OrgGeneral; app: VerificationApplication }) {
  const { t } = useTranslation("org");
  const cancel = useCancelCompanyChange(org.id);
  const [confirming, setConfirming] = useState(false);
  const error =
    cancel.error instanceof ApiError
      ? cancel.error.message
      : cancel.error
        ? t("auth.cancelFailed", { reason: t("failure.tryLater") })
        : undefined;
  return (
    <Section title={t("auth.company.pendingTitle")} description={t("auth.company.pendingText")}>
      <Details app={app} org={org} />
      <Group justify="flex-end">
        <Button variant="default" color="red" onClick={() => setConfirming(true)} data-testid="cancel-company-change">
          {t("auth.company.cancel")}
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        onClose={() => {
          setConfirming(false);
          cancel.reset();
        }}
        title={t("auth.company.cancelTitle")}
        confirmLabel={t("auth.company.cancelConfirm")}
        onConfirm={() => cancel.mutate(undefined, { onSuccess: () => setConfirming(false) })}
        pending={cancel.isPending}
        error={error}
      >
        <Text size="sm">{t("auth.company.cancelText")}</Text>
      </ConfirmDialog>
    </Section>
  );
}

/** The algorithm-filing authorization letter: a link when the status allows it, else what it still needs. */
function FilingCard({
  orgId,
  status,
  currency,
}: {
  orgId: string;
  status: VerificationStatus;
  currency: OrgGeneral["currency"];
}) {
  const { t } = useTranslation("org");
  const f = status.filing;
  return (
    <Section title={t("auth.filing.title")}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" c="dimmed" maw={480}>
          {t(f.allowed ? "auth.filing.ready" : "auth.filing.needs", {
            min: money(f.minRecharge, currency),
            total: money(f.cumulativeRecharge, currency),
          })}
        </Text>
        {f.allowed ? (
          <Button
            component="a"
            href={filingLetterUrl(orgId)}
            download
            leftSection={<IconDownload size={16} />}
            data-testid="filing-letter"
          >
            {t("auth.filing.download")}
          </Button>
        ) : null}
      </Group>
    </Section>
  );
}
