import { Alert, Button, Center, Group, Skeleton, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconAlertTriangle, IconInbox, IconLock } from "@tabler/icons-react";
import type { ComponentType, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { paths } from "../../lib/paths.ts";
import { PageHeader } from "../page-header.tsx";
import { PageMeta } from "../page-meta.tsx";

/** Placeholder rows while a screen's data loads. */
export function LoadingBlock({ rows = 4 }: { rows?: number }) {
  return (
    <Stack gap="sm" aria-busy="true" data-testid="loading">
      {Array.from({ length: rows }, (_, i) => `row-${i}`).map((id, i) => (
        <Skeleton key={id} height={i === 0 ? 28 : 40} radius="sm" />
      ))}
    </Stack>
  );
}

/** A failed load: the server's message and a retry (none for a refusal: asking again changes nothing). */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation("org");
  if (error instanceof ApiError && error.status === 403) return <Forbidden />;
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t("state.loadFailed")}>
      <Group justify="space-between" gap="sm">
        <Text size="sm">{error instanceof Error ? error.message : String(error)}</Text>
        {onRetry ? (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {t("common:retry")}
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}

/** A designed empty list: icon, one line of why it is empty, and the action that fills it. */
export function EmptyState({
  icon: Icon = IconInbox,
  title,
  text,
  action,
}: {
  icon?: ComponentType<{ size?: number; stroke?: number }>;
  title: string;
  text?: string;
  action?: ReactNode;
}) {
  return (
    <Center py={48} data-testid="empty-state">
      <Stack align="center" gap="xs" maw={420}>
        <ThemeIcon size={56} radius="xl" variant="light">
          <Icon size={28} stroke={1.5} />
        </ThemeIcon>
        <Text fw={600} mt="xs">
          {title}
        </Text>
        {text ? (
          <Text size="sm" c="dimmed" ta="center">
            {text}
          </Text>
        ) : null}
        {action ? <div style={{ marginTop: 8 }}>{action}</div> : null}
      </Stack>
    </Center>
  );
}

/** What a signed-in user sees where their role does not reach: why, and the way back. */
function Forbidden() {
  const { t } = useTranslation("console");
  return (
    <EmptyState
      icon={IconLock}
      title={t("forbidden.title")}
      text={t("forbidden.text")}
      action={
        <Button component={Link} to={paths.overview} variant="light" data-testid="forbidden-back">
          {t("forbidden.back")}
        </Button>
      }
    />
  );
}

/** A screen only organization admins may open, reached by a member (a bookmark, a shared link): title and why. */
export function ForbiddenScreen({ title }: { title: string }) {
  return (
    <div data-testid="forbidden">
      <PageMeta title={title} />
      <PageHeader title={title} />
      <Forbidden />
    </div>
  );
}
