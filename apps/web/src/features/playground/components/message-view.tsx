import { Badge, Box, Group, Image, Paper, Stack, Text } from "@mantine/core";
import type { PlaygroundMessage } from "@moonport/contracts";
import { IconFile } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import classes from "./playground.module.css";
import { ToolCallView } from "./tool-call-view.tsx";

/** One message as read (chat and compare): role, text, collapsible reasoning, images, files and tool calls. */
export function MessageView({ message, streaming }: { message: PlaygroundMessage; streaming?: boolean }) {
  const { t } = useTranslation("playground");
  const mine = message.role === "user";
  return (
    <Box className={mine ? classes.userRow : classes.assistantRow} data-testid={`message-${message.role}`}>
      <Paper className={mine ? classes.userBubble : classes.assistantBubble} p="sm" radius="md" withBorder={!mine}>
        <Stack gap={6}>
          <Group gap={6}>
            <Badge size="xs" variant="light" color={mine ? "blue" : message.role === "assistant" ? "grape" : "gray"}>
              {t(`roles.${message.role}`)}
            </Badge>
            {streaming ? (
              <Text size="xs" c="dimmed">
                {t("chat.streaming")}
              </Text>
            ) : null}
          </Group>
          {message.reasoning ? (
            <details className={classes.reasoning} open={streaming && !message.content}>
              <summary>{t("chat.reasoning")}</summary>
              <Text size="sm" c="dimmed" className={classes.pre}>
                {message.reasoning}
              </Text>
            </details>
          ) : null}
          {message.images?.length ? (
            <Group gap={6}>
              {message.images.map((src, i) => (
                <Image
                  // biome-ignore lint/suspicious/noArrayIndexKey: a message's images never reorder
                  key={`${message.id}-${i}`}
                  src={src}
                  alt={t("chat.imageAlt", { n: i + 1 })}
                  w={96}
                  h={96}
                  fit="cover"
                  radius="sm"
                />
              ))}
            </Group>
          ) : null}
          {message.files?.map((f) => (
            <Group key={f.id} gap={6}>
              <IconFile size={14} />
              <Text size="xs">{f.filename}</Text>
            </Group>
          ))}
          {message.content || !message.toolCalls?.length ? (
            <Text size="sm" className={classes.pre} data-testid="message-content">
              {message.content || (streaming ? "…" : "")}
            </Text>
          ) : null}
          {message.toolCalls?.map((c) => (
            <ToolCallView key={c.id} call={c} />
          ))}
        </Stack>
      </Paper>
    </Box>
  );
}
