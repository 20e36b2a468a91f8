import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { AdminGrantRequest, type AdminOrganizationDetail, AdminSuspendRequest } from "@moonport/contracts";
import { IconArrowLeft, IconPlayerPause, IconPlayerPlay } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { ConfirmDialog, FormDialog } from "../../../components/console-kit/form-dialog.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { useDialogForm } from "../../../components/console-kit/use-zod-form.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { organizationQuery, useGrantCredit, useSetLimits, useSuspend } from "../api/admin.ts";
import { BadgeList, DetailCard, DetailTable, roleColor } from "./detail-parts.tsx";
import { StatCard } from "./stat-card.tsx";

type Dialog = "grant" | "limits" | "suspend" | "resume" | null;

/** Back office → one organization: money, tier and overrides, members, projects, ledger; grant, limits, suspend. */
export function OrganizationScreen({ orgId }: { orgId: string }) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const q = useQuery(organizationQuery(orgId));
  const [dialog, setDialog] = useState<Dialog>(null);
  const back = (
    <Anchor component={Link} to={paths.adminOrganizations} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} />
        {t("orgs.back")}
      </Group>
    </Anchor>
  );
  if (q.isPending) return <LoadingBlock rows={8} />;
  if (q.isError) return <LoadError error={q.error} onRetry={() => q.refetch()} />;
  const org = q.data;
  const close = () => setDialog(null);
  return (
    <>
      {back}
      <PageHeader
        title={org.name}
        description={`${org.id} · ${t(`editions.${org.edition}`)}`}
        actions={
          <Group gap="xs">
            <Button variant="light" onClick={() => setDialog("grant")} data-testid="admin-grant">
              {t("orgs.grant")}
            </Button>
            <Button variant="default" onClick={() => setDialog("limits")} data-testid="admin-limits">
              {t("orgs.limits")}
            </Button>
            {org.suspendedAt ? (
              <Button
                color="teal"
                leftSection={<IconPlayerPlay size={16} />}
                onClick={() => setDialog("resume")}
                data-testid="admin-resume"
              >
                {t("orgs.resume")}
              </Button>
            ) : (
              <Button
                color="red"
                variant="light"
                leftSection={<IconPlayerPause size={16} />}
                onClick={() => setDialog("suspend")}
                data-testid="admin-suspend"
              >
                {t("orgs.suspend")}
              </Button>
            )}
          </Group>
        }
      />
      <Stack gap="lg">
        {org.suspendedAt ? (
          <Alert color="red" variant="light" data-testid="admin-suspended">
            {t("orgs.suspendedSince", {
              date: formatDateTime(org.suspendedAt, locale),
              reason: org.suspendReason ?? "",
            })}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <StatCard label={t("orgs.cash")} value={money(org.balance.cash, org.currency)} testId="admin-org-cash" />
          <StatCard label={t("orgs.voucher")} value={money(org.balance.voucher, org.currency)} />
          <StatCard label={t("orgs.recharged")} value={money(org.cumulativeRecharge, org.currency)} />
          <StatCard label={t("orgs.tier")} value={t(`common:tierName.${org.tier.tier}`)} testId="admin-org-tier" />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <DetailCard title={t("orgs.overrides")}>
            <Text size="sm" data-testid="admin-org-tier-override">
              {t("orgs.tierOverride")}:{" "}
              {org.tierOverride === null ? t("orgs.noOverride") : t(`common:tierName.${org.tierOverride}`)}
            </Text>
            <Text size="sm" data-testid="admin-org-tier-floor">
              {t("orgs.tierFloor")}:{" "}
              {org.tierFloor === null ? t("orgs.noFloor") : t(`common:tierName.${org.tierFloor}`)}
            </Text>
            <Text size="sm" data-testid="admin-org-limits">
              {org.rateLimitOverride
                ? Object.entries(org.rateLimitOverride)
                    .map(([k, v]) => `${k.toUpperCase()} ${v ?? "∞"}`)
                    .join(" · ")
                : t("orgs.limitsOfTier")}
            </Text>
            <Text size="sm" mt="xs">
              {t("orgs.verification")}: {org.verification}
            </Text>
          </DetailCard>
          <DetailCard title={`${t("orgs.memberList")} (${org.memberList.length})`}>
            <BadgeList
              rows={org.memberList.map((m) => ({
                key: m.userId,
                label: m.username ?? m.userId,
                to: paths.adminUser(m.userId),
                badge: m.role,
                color: roleColor(m.role),
              }))}
            />
          </DetailCard>
          <DetailCard title={`${t("orgs.projects")} (${org.projects.length})`}>
            <BadgeList
              rows={org.projects.map((p) => ({
                key: p.id,
                label: p.name,
                badge: p.status,
                color: p.status === "active" ? "green" : "gray",
              }))}
            />
          </DetailCard>
        </SimpleGrid>
        <DetailCard title={t("orgs.ledger")} empty={org.ledger.length === 0 ? t("orgs.ledgerEmpty") : null}>
          <DetailTable
            testId="admin-ledger"
            rows={org.ledger}
            rowKey={(l) => l.id}
            columns={[
              { header: t("orgs.created"), cell: (l) => <DateTimeCell iso={l.createdAt} /> },
              { header: t("orgs.kind"), cell: (l) => l.kind },
              { header: t("orgs.amount"), right: true, cell: (l) => money(l.amount, org.currency) },
              { header: t("orgs.note"), cell: (l) => l.note ?? "" },
            ]}
          />
        </DetailCard>
      </Stack>
      <GrantDialog org={org} opened={dialog === "grant"} onClose={close} />
      <LimitsDialog key={`limits-${dialog}`} org={org} opened={dialog === "limits"} onClose={close} />
      <SuspendDialog org={org} opened={dialog === "suspend"} onClose={close} />
      <ResumeDialog org={org} opened={dialog === "resume"} onClose={close} />
    </>
  );
}

/** A dialog about the organization on screen. */
interface OrgDialogProps {
  org: AdminOrganizationDetail;
  opened: boolean;
  onClose: () => void;
}

function GrantDialog({ org, opened, onClose }: OrgDialogProps) {
  const { t } = useTranslation("admin");
  const grant = useGrantCredit(org.id);
  const { field, dialog } = useDialogForm(AdminGrantRequest, {
    opened,
    onClose,
    defaultValues: { amount: "", note: "" },
    submit: async (v) => {
      await grant.mutateAsync(v);
      notifications.show({ color: "teal", message: t("orgs.grantDone") });
    },
    failure: (reason) => t("orgs.failed", { reason }),
  });
  return (
    <FormDialog {...dialog} title={t("orgs.grantTitle", { name: org.name })} submitLabel={t("orgs.grant")}>
      <Text size="sm" c="dimmed">
        {t("orgs.grantHint")}
      </Text>
      <TextInput
        label={t("orgs.grantAmount", { currency: org.currency })}
        inputMode="decimal"
        {...field("amount")}
        data-testid="grant-amount"
      />
      <Textarea label={t("orgs.grantNote")} autosize minRows={2} {...field("note")} data-testid="grant-note" />
    </FormDialog>
  );
}

function LimitsDialog({ org, opened, onClose }: OrgDialogProps) {
  const { t } = useTranslation("admin");
  const setLimits = useSetLimits(org.id);
  const o = org.rateLimitOverride ?? {};
  const [tier, setTier] = useState<string>(org.tierOverride === null ? "auto" : String(org.tierOverride));
  const [values, setValues] = useState<Record<"concurrency" | "rpm" | "tpm" | "tpd", number | "">>({
    concurrency: o.concurrency ?? "",
    rpm: o.rpm ?? "",
    tpm: o.tpm ?? "",
    tpd: o.tpd ?? "",
  });
  const [tpdUnlimited, setTpdUnlimited] = useState(o.tpd === null);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const submit = async (e?: React.FormEvent) => {
    e?.preventDefault();
    setError(undefined);
    const override: Record<string, number | null> = {};
    for (const k of ["concurrency", "rpm", "tpm"] as const) if (values[k] !== "") override[k] = Number(values[k]);
    if (tpdUnlimited) override.tpd = null;
    else if (values.tpd !== "") override.tpd = Number(values.tpd);
    setPending(true);
    try {
      await setLimits.mutateAsync({
        tierOverride: tier === "auto" ? null : Number(tier),
        rateLimitOverride: Object.keys(override).length ? override : null,
      });
      notifications.show({ color: "teal", message: t("orgs.limitsDone") });
      onClose();
    } catch (err) {
      setError(t("orgs.failed", { reason: err instanceof ApiError ? err.message : String(err) }));
    } finally {
      setPending(false);
    }
  };
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      onSubmit={submit}
      submitting={pending}
      error={error}
      title={t("orgs.limitsTitle", { name: org.name })}
    >
      <Select
        label={t("orgs.tierOverride")}
        data={[
          { value: "auto", label: t("orgs.tierAuto") },
          ...[0, 1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: t(`common:tierName.${n}`) })),
        ]}
        value={tier}
        onChange={(v) => setTier(v ?? "auto")}
        allowDeselect={false}
        data-testid="limits-tier"
      />
      <Text size="sm" c="dimmed">
        {t("orgs.limitsHint")}
      </Text>
      <SimpleGrid cols={2}>
        {(["concurrency", "rpm", "tpm", "tpd"] as const).map((k) => (
          <NumberInput
            key={k}
            label={k.toUpperCase()}
            min={1}
            allowDecimal={false}
            thousandSeparator=","
            disabled={k === "tpd" && tpdUnlimited}
            value={values[k]}
            onChange={(v) => setValues((s) => ({ ...s, [k]: typeof v === "number" ? v : "" }))}
            data-testid={`limits-${k}`}
          />
        ))}
      </SimpleGrid>
      <Checkbox
        label={t("orgs.tpdUnlimited")}
        checked={tpdUnlimited}
        onChange={(e) => setTpdUnlimited(e.currentTarget.checked)}
      />
    </FormDialog>
  );
}

function SuspendDialog({ org, opened, onClose }: OrgDialogProps) {
  const { t } = useTranslation("admin");
  const suspend = useSuspend(org.id);
  const { field, dialog } = useDialogForm(AdminSuspendRequest, {
    opened,
    onClose,
    defaultValues: { reason: "" },
    submit: (v) => suspend.mutateAsync({ suspend: true, reason: v.reason }),
    failure: (reason) => t("orgs.failed", { reason }),
  });
  return (
    <FormDialog {...dialog} title={t("orgs.suspendTitle", { name: org.name })} submitLabel={t("orgs.suspend")} danger>
      <Text size="sm">{t("orgs.suspendText")}</Text>
      <Textarea
        label={t("orgs.suspendReason")}
        autosize
        minRows={2}
        {...field("reason")}
        data-testid="suspend-reason"
      />
    </FormDialog>
  );
}

function ResumeDialog({ org, opened, onClose }: OrgDialogProps) {
  const { t } = useTranslation("admin");
  const resume = useSuspend(org.id);
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title={t("orgs.resume")}
      confirmLabel={t("orgs.resume")}
      danger={false}
      pending={resume.isPending}
      error={resume.error ? t("orgs.failed", { reason: resume.error.message }) : undefined}
      onConfirm={() => resume.mutate({ suspend: false }, { onSuccess: onClose })}
    >
      <Text size="sm">{t("orgs.resumeText", { name: org.name })}</Text>
    </ConfirmDialog>
  );
}
