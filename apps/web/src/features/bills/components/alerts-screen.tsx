import { Alert, Card, Group, NumberInput, Stack, Switch, TagsInput, Text } from "@mantine/core";
import {
  ALERT_RECIPIENTS_MAX,
  ALERT_THRESHOLD_MAX,
  type AlertSettings,
  type Currency,
  UpdateAlertSettingsRequest,
} from "@moonport/contracts";
import { IconBell } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DateTimeCell } from "../../../components/console-kit/cells.tsx";
import { FormFooter } from "../../../components/console-kit/form-footer.tsx";
import { money } from "../../../components/console-kit/money.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { useZodForm } from "../../../components/console-kit/use-zod-form.ts";
import { useFieldMessage } from "../../../lib/forms.ts";
import { alertSettingsQuery, useUpdateAlertSettings } from "../api/alert-settings.ts";

/** Alert settings: the balance alert and who gets alert e-mails (also the projects' consumption alerts). */
export function AlertsScreen({ orgId }: { orgId: string }) {
  const q = useQuery(alertSettingsQuery(orgId));
  if (q.isPending) return <LoadingBlock rows={5} />;
  if (q.isError) return <LoadError error={q.error} onRetry={() => q.refetch()} />;
  return <AlertsForm orgId={orgId} settings={q.data} />;
}

function AlertsForm({ orgId, settings }: { orgId: string; settings: AlertSettings }) {
  const { t } = useTranslation("bills");
  const update = useUpdateAlertSettings(orgId);
  const [saved, setSaved] = useState(false);
  const { form, error, onSubmit, formError } = useZodForm(UpdateAlertSettingsRequest, {
    defaultValues: {
      balanceEnabled: settings.balanceEnabled,
      balanceThreshold: settings.balanceThreshold,
      recipients: settings.recipients,
    },
  });
  const submit = onSubmit(
    async (values) => {
      setSaved(false);
      await update.mutateAsync(values);
      setSaved(true);
    },
    (reason) => t("failure.saveAlerts", { reason }),
  );
  const currency: Currency = settings.currency;
  const fieldMessage = useFieldMessage();
  // A bad address is reported on its item ("recipients.2"); show the first under the input.
  const items = form.formState.errors.recipients as unknown as ({ message?: string } | undefined)[] | undefined;
  const itemError = fieldMessage(Array.isArray(items) ? items.find((e) => e?.message)?.message : undefined);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg" maw={640}>
        <Card withBorder padding="lg">
          <Stack gap="md">
            <Group gap="xs">
              <IconBell size={18} />
              <Text fw={600}>{t("alerts.balanceTitle")}</Text>
            </Group>
            <Text size="sm" c="dimmed">
              {t("alerts.balanceText", { available: money(settings.available, currency) })}
            </Text>
            <Controller
              control={form.control}
              name="balanceEnabled"
              render={({ field }) => (
                <Switch
                  checked={Boolean(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                  label={t("alerts.enabled")}
                  data-testid="alert-enabled"
                />
              )}
            />
            <Controller
              control={form.control}
              name="balanceThreshold"
              render={({ field }) => (
                <NumberInput
                  label={t("alerts.threshold", { currency })}
                  description={t("alerts.thresholdHint", { max: ALERT_THRESHOLD_MAX.toLocaleString() })}
                  value={field.value as number}
                  onChange={(v) => field.onChange(typeof v === "number" ? v : v === "" ? Number.NaN : Number(v))}
                  allowDecimal
                  thousandSeparator=","
                  error={error("balanceThreshold")}
                  data-testid="alert-threshold"
                />
              )}
            />
            {settings.lastSentAt ? (
              <Alert variant="light" color={settings.armed ? "gray" : "yellow"}>
                <Group gap={4}>
                  <Text size="sm">{t(settings.armed ? "alerts.lastSent" : "alerts.sentWaiting")}</Text>
                  <DateTimeCell iso={settings.lastSentAt} />
                </Group>
              </Alert>
            ) : null}
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Stack gap="md">
            <Text fw={600}>{t("alerts.recipientsTitle")}</Text>
            <Text size="sm" c="dimmed">
              {t("alerts.recipientsText")}
            </Text>
            <Controller
              control={form.control}
              name="recipients"
              render={({ field }) => (
                <TagsInput
                  label={t("alerts.recipients")}
                  description={t("alerts.recipientsHint", { max: ALERT_RECIPIENTS_MAX })}
                  value={(field.value as string[]) ?? []}
                  onChange={field.onChange}
                  splitChars={[",", " ", ";"]}
                  clearable
                  error={error("recipients") ?? itemError}
                  data-testid="alert-recipients"
                />
              )}
            />
          </Stack>
        </Card>
        <FormFooter error={formError} saved={saved} editable submitting={form.formState.isSubmitting} />
      </Stack>
    </form>
  );
}
