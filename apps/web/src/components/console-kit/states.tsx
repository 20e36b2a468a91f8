import { Alert, Button, Center, Group, Skeleton, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconAlertTriangle, IconInbox } from "@tabler/icons-react";
import type { ComponentType, ReactNode } from "react";
import { useTranslation } from "react-i18next";

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

/** A failed load: the server's message and a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation("org");
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
