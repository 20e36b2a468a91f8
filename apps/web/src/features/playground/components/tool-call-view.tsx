import { Badge, Code, Group, Loader, Paper, Stack, Text } from "@mantine/core";
import type { PlaygroundToolCall, ToolCallState } from "@moonport/contracts";
import { useTranslation } from "react-i18next";
import classes from "./playground.module.css";

const STATE_COLOR: Record<ToolCallState, string> = {
  pending: "gray",
  executing: "blue",
  success: "teal",
  failed: "red",
};

/** One tool call of an answer (docs/api-compat.md §11): name, kind, state, call id, arguments and result. */
export function ToolCallView({ call }: { call: PlaygroundToolCall }) {
  const { t } = useTranslation("playground");
  return (
    <Paper withBorder radius="sm" p="xs" data-testid="tool-call" data-state={call.state} data-name={call.name}>
      <Stack gap={4}>
        <Group gap={6} justify="space-between" wrap="wrap">
          <Group gap={6} wrap="wrap" style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} ff="monospace" className={classes.pre}>
              {call.name}
            </Text>
            {call.kind ? (
              <Badge size="xs" variant="outline" color="gray">
                {t(`tools.kinds.${call.kind}`)}
              </Badge>
            ) : null}
          </Group>
          <Group gap={6}>
            {call.state === "executing" ? <Loader size={12} /> : null}
            <Badge size="sm" variant="light" color={STATE_COLOR[call.state]} data-testid="tool-call-state">
              {t(`tools.states.${call.state}`)}
            </Badge>
            {call.durationMs !== undefined ? (
              <Text size="xs" c="dimmed">
                {t("tools.call.duration", { ms: call.durationMs })}
              </Text>
            ) : null}
          </Group>
        </Group>
        <Text size="xs" c="dimmed" className={classes.pre}>
          {t("tools.call.id")}: <span data-testid="tool-call-id">{call.id}</span>
        </Text>
        <Text size="xs" fw={500}>
          {t("tools.call.arguments")}
        </Text>
        <Code block className={classes.codeBlock}>
          {call.arguments || "{}"}
        </Code>
        {call.output !== undefined ? (
          <>
            <Text size="xs" fw={500}>
              {t("tools.call.result")}
            </Text>
            <Code block className={classes.codeBlock} data-testid="tool-call-result">
              {call.output}
            </Code>
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
