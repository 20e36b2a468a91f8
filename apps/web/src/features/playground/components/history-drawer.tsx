import { ActionIcon, Button, Drawer, Group, Stack, Text, TextInput, UnstyledButton } from "@mantine/core";
import { PlaygroundSessionTitle } from "@moonport/contracts";
import { IconCheck, IconPencil, IconTrash, IconX } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { IconButton } from "../../../components/icon-button.tsx";
import { useFieldMessage } from "../../../lib/forms.ts";
import { sessionsQuery } from "../api/get-sessions.ts";
import { useDeleteSession, useRenameSession } from "../api/save-session.ts";
import classes from "./playground.module.css";

/** Saved sessions of the user in this project: open, rename, delete. */
export function HistoryDrawer({
  opened,
  onClose,
  orgId,
  projectId,
  currentId,
  onOpen,
  onDeleted,
}: {
  opened: boolean;
  onClose: () => void;
  orgId: string;
  projectId: string;
  currentId: string | null;
  onOpen: (id: string) => void;
  onDeleted: (id: string) => void;
}) {
  const { t, i18n } = useTranslation("playground");
  const fieldMessage = useFieldMessage();
  const list = useQuery({ ...sessionsQuery(orgId, projectId), enabled: opened });
  const rename = useRenameSession(orgId, projectId);
  const remove = useDeleteSession(orgId, projectId);
  const [editing, setEditing] = useState<{ id: string; title: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const titleError = editing
    ? (() => {
        const r = PlaygroundSessionTitle.safeParse(editing.title);
        return r.success ? null : (fieldMessage(r.error.issues[0]!.message) ?? null);
      })()
    : null;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={t("history.title")}
      position="right"
      size="md"
      className={classes.root}
    >
      {list.isPending ? (
        <LoadingBlock />
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("history.empty")}
        </Text>
      ) : (
        <Stack gap={4}>
          {error ? (
            <Text size="sm" c="red">
              {error}
            </Text>
          ) : null}
          {list.data.items.map((s) =>
            editing?.id === s.id ? (
              <Group key={s.id} gap={4} wrap="nowrap" align="flex-start">
                <TextInput
                  style={{ flex: 1 }}
                  size="xs"
                  value={editing.title}
                  onChange={(e) => setEditing({ id: s.id, title: e.currentTarget.value })}
                  error={titleError}
                  aria-label={t("history.rename")}
                  data-autofocus
                />
                <ActionIcon
                  variant="light"
                  aria-label={t("history.save")}
                  disabled={!!titleError}
                  loading={rename.isPending}
                  onClick={() =>
                    rename.mutate(editing, {
                      onSuccess: () => setEditing(null),
                      onError: (e) => setError(t("history.renameFailed", { reason: e.message })),
                    })
                  }
                >
                  <IconCheck size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t("common:cancel")}
                  onClick={() => setEditing(null)}
                >
                  <IconX size={16} />
                </ActionIcon>
              </Group>
            ) : (
              <Group key={s.id} gap={4} wrap="nowrap" data-testid="history-item">
                <UnstyledButton
                  onClick={() => onOpen(s.id)}
                  p={6}
                  aria-current={s.id === currentId ? "true" : undefined}
                  // The open session stands out by more than its weight.
                  bg={s.id === currentId ? "var(--mantine-color-default-hover)" : undefined}
                  style={{ flex: 1, minWidth: 0, borderRadius: "var(--mantine-radius-sm)" }}
                >
                  <Text size="sm" fw={s.id === currentId ? 700 : 400} truncate>
                    {s.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`modes.${s.mode}`)} · {date.format(new Date(s.updatedAt))}
                  </Text>
                </UnstyledButton>
                <IconButton
                  label={t("history.rename")}
                  variant="subtle"
                  color="gray"
                  onClick={() => setEditing({ id: s.id, title: s.title })}
                >
                  <IconPencil size={16} />
                </IconButton>
                <IconButton
                  label={t("history.delete")}
                  variant="subtle"
                  color="red"
                  loading={remove.isPending && remove.variables === s.id}
                  onClick={() =>
                    remove.mutate(s.id, {
                      onSuccess: () => onDeleted(s.id),
                      onError: (e) => setError(t("history.deleteFailed", { reason: e.message })),
                    })
                  }
                >
                  <IconTrash size={16} />
                </IconButton>
              </Group>
            ),
          )}
        </Stack>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" size="xs" onClick={onClose}>
          {t("history.close")}
        </Button>
      </Group>
    </Drawer>
  );
}
