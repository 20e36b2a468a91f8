import { ActionIcon, Button, Group, Paper, Select, Stack, Text, Textarea, TextInput, Tooltip } from "@mantine/core";
import type { PlaygroundMessage, PlaygroundRole } from "@moonport/contracts";
import { IconArrowDown, IconArrowUp, IconPlayerPlay, IconPlus, IconTrash } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { newMessage } from "../model/session.ts";
import classes from "./playground.module.css";

const ROLES: PlaygroundRole[] = ["system", "user", "assistant", "tool"];

type RowAction = {
  /** i18n key of the tooltip and the accessible name */
  label: "edit.up" | "edit.down" | "edit.insert" | "edit.delete" | "edit.runFrom";
  icon: typeof IconPlus;
  color?: string;
  variant?: "subtle" | "light";
  disabled: boolean;
  onClick: () => void;
  testId?: string;
};

/**
 * Edit mode: the conversation as editable messages. Change, insert, delete, reorder; "Run from here" keeps the
 * messages up to this one and lets the model answer again (a later answer is overwritten). Ctrl/Cmd+Enter in a
 * message runs from it.
 */
export function EditView({
  messages,
  onChange,
  onRunFrom,
  running,
  readOnly,
  streamingId,
}: {
  messages: PlaygroundMessage[];
  onChange: (messages: PlaygroundMessage[]) => void;
  onRunFrom: (index: number) => void;
  running: boolean;
  readOnly: boolean;
  streamingId: string | null;
}) {
  const { t } = useTranslation("playground");
  const set = (i: number, m: Partial<PlaygroundMessage>) =>
    onChange(messages.map((x, j) => (j === i ? { ...x, ...m } : x)));
  const insert = (i: number) => {
    const prev = messages[i];
    const role: PlaygroundRole = prev?.role === "user" ? "assistant" : "user";
    onChange([...messages.slice(0, i + 1), newMessage(role), ...messages.slice(i + 1)]);
  };
  const move = (i: number, d: -1 | 1) => {
    const next = [...messages];
    const [m] = next.splice(i, 1);
    next.splice(i + d, 0, m!);
    onChange(next);
  };
  /** The row's buttons, in order: one definition, one rendering. */
  const rowActions = (i: number): RowAction[] => [
    { label: "edit.up", icon: IconArrowUp, color: "gray", disabled: readOnly || i === 0, onClick: () => move(i, -1) },
    {
      label: "edit.down",
      icon: IconArrowDown,
      color: "gray",
      disabled: readOnly || i === messages.length - 1,
      onClick: () => move(i, 1),
    },
    { label: "edit.insert", icon: IconPlus, color: "gray", disabled: readOnly, onClick: () => insert(i) },
    {
      label: "edit.delete",
      icon: IconTrash,
      color: "red",
      disabled: readOnly,
      onClick: () => onChange(messages.filter((_, j) => j !== i)),
    },
    {
      label: "edit.runFrom",
      icon: IconPlayerPlay,
      variant: "light",
      disabled: readOnly || running,
      onClick: () => onRunFrom(i),
      testId: "run-from",
    },
  ];
  return (
    <Stack gap="sm" data-testid="edit-view">
      {messages.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("edit.empty")}
        </Text>
      ) : null}
      {messages.map((m, i) => (
        <Paper key={m.id} withBorder p="sm" radius="md" data-testid="edit-message">
          <Stack gap={6}>
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Group gap="xs" wrap="nowrap">
                <Select
                  size="xs"
                  w={120}
                  data={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
                  value={m.role}
                  onChange={(v) => v && set(i, { role: v as PlaygroundRole })}
                  allowDeselect={false}
                  aria-label={t("edit.role")}
                  disabled={readOnly}
                />
                {m.role === "tool" ? (
                  <TextInput
                    size="xs"
                    w={160}
                    placeholder="tool_call_id"
                    aria-label={t("edit.toolCallId")}
                    value={m.toolCallId ?? ""}
                    onChange={(e) => set(i, { toolCallId: e.currentTarget.value })}
                    disabled={readOnly}
                  />
                ) : null}
              </Group>
              <Group gap={2} wrap="nowrap">
                {rowActions(i).map((a) => (
                  <Tooltip key={a.label} label={t(a.label)} withArrow>
                    <ActionIcon
                      variant={a.variant ?? "subtle"}
                      color={a.color}
                      aria-label={t(a.label)}
                      disabled={a.disabled}
                      onClick={a.onClick}
                      data-testid={a.testId}
                    >
                      <a.icon size={16} />
                    </ActionIcon>
                  </Tooltip>
                ))}
              </Group>
            </Group>
            {m.reasoning ? (
              <details className={classes.reasoning}>
                <summary>{t("chat.reasoning")}</summary>
                <Text size="sm" c="dimmed" className={classes.pre}>
                  {m.reasoning}
                </Text>
              </details>
            ) : null}
            <Textarea
              autosize
              minRows={1}
              maxRows={12}
              value={m.content}
              aria-label={t("edit.content", { n: i + 1 })}
              placeholder={streamingId === m.id ? t("chat.streaming") : t("edit.placeholder")}
              onChange={(e) => set(i, { content: e.currentTarget.value })}
              readOnly={readOnly || streamingId === m.id}
              data-testid="edit-content"
              onKeyDown={(e) => {
                if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !readOnly && !running) {
                  e.preventDefault();
                  onRunFrom(i);
                }
              }}
            />
          </Stack>
        </Paper>
      ))}
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={readOnly}
          onClick={() => onChange([...messages, newMessage(messages.at(-1)?.role === "user" ? "assistant" : "user")])}
          data-testid="add-message"
        >
          {t("edit.add")}
        </Button>
      </Group>
    </Stack>
  );
}
