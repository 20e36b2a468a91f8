import { Button, Drawer, Group, Paper, Stack, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import type { Currency, PlaygroundMessage, PlaygroundPanel, PlaygroundSessionState } from "@moonport/contracts";
import { IconAdjustments } from "@tabler/icons-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { EditView } from "./edit-view.tsx";
import { MessageView } from "./message-view.tsx";
import { ModelSelect, ParamsForm } from "./params-form.tsx";
import classes from "./playground.module.css";
import { RunError } from "./run-error.tsx";
import { RunFooter } from "./run-footer.tsx";
import { shownMessages } from "./shown-messages.ts";
import type { RunStatus } from "./use-runner.ts";

/**
 * Chat and edit mode: the conversation (or its editor) beside the model and its parameters, which move into a
 * drawer on narrow screens.
 */
export function SingleView({
  state,
  currency,
  status,
  anyRunning,
  streamingId,
  alternates,
  onMessages,
  setPanel,
  onRunFrom,
  onStop,
  systemPrompt,
  composer,
}: {
  state: PlaygroundSessionState;
  currency: Currency;
  status: Record<string, RunStatus>;
  anyRunning: boolean;
  streamingId: string | null;
  alternates: Record<string, string[]>;
  onMessages: (messages: PlaygroundMessage[]) => void;
  setPanel: (id: string, patch: Partial<PlaygroundPanel>) => void;
  onRunFrom: (i: number) => void;
  onStop: () => void;
  systemPrompt: ReactNode;
  composer: ReactNode;
}) {
  const { t } = useTranslation("playground");
  const narrow = useMediaQuery("(max-width: 62em)") ?? false;
  const [paramsOpen, setParamsOpen] = useState(false);
  const panel0 = state.panels[0]!;
  const settings = (
    <Stack gap="sm">
      <ModelSelect
        value={panel0.model}
        onChange={(model) => setPanel(panel0.id, { model })}
        currency={currency}
        disabled={anyRunning}
      />
      <ParamsForm params={panel0.params} model={panel0.model} onChange={(params) => setPanel(panel0.id, { params })} />
    </Stack>
  );
  return (
    <>
      <div className={classes.layout}>
        <Stack gap="sm" style={{ minWidth: 0 }}>
          {narrow ? (
            <Group>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconAdjustments size={14} />}
                onClick={() => setParamsOpen(true)}
              >
                {t("params.title")} · {panel0.model}
              </Button>
            </Group>
          ) : null}
          {systemPrompt}
          {state.mode === "edit" ? (
            <EditView
              messages={state.messages}
              onChange={onMessages}
              onRunFrom={onRunFrom}
              running={anyRunning}
              readOnly={state.readOnly}
              streamingId={streamingId}
            />
          ) : (
            <ChatConversation messages={state.messages} streamingId={streamingId} alternates={alternates} />
          )}
          <RunError status={status[panel0.id]} />
          {state.mode !== "edit" ? (
            composer
          ) : anyRunning ? (
            <Group>
              <Button size="xs" color="red" onClick={onStop} data-testid="stop">
                {t("chat.stop")}
              </Button>
            </Group>
          ) : null}
          <RunFooter status={status[panel0.id]} currency={currency} />
        </Stack>
        {narrow ? null : (
          <Paper withBorder p="sm" radius="md" aria-label={t("params.title")} component="aside">
            {settings}
          </Paper>
        )}
      </div>
      <Drawer
        opened={narrow && paramsOpen}
        onClose={() => setParamsOpen(false)}
        title={t("params.title")}
        position="right"
        className={classes.root}
      >
        {settings}
      </Drawer>
    </>
  );
}

/** Chat mode's conversation; choices 2…n of an answer follow it, numbered. */
function ChatConversation({
  messages,
  streamingId,
  alternates,
}: {
  messages: PlaygroundMessage[];
  streamingId: string | null;
  alternates: Record<string, string[]>;
}) {
  const { t } = useTranslation("playground");
  return (
    <Paper withBorder radius="md" className={classes.conversation} data-testid="chat-view">
      <Stack gap="xs">
        {messages.length === 0 ? (
          <Text size="sm" c="dimmed" p="sm">
            {t("chat.empty")}
          </Text>
        ) : (
          shownMessages(messages).map((m) => (
            <Stack key={m.id} gap={4}>
              <MessageView message={m} streaming={streamingId === m.id} />
              {(alternates[m.id] ?? []).map((alt, j) => (
                <MessageView
                  // biome-ignore lint/suspicious/noArrayIndexKey: choice numbers are the identity here
                  key={`${m.id}-alt-${j + 2}`}
                  message={{
                    id: `${m.id}-${j}`,
                    role: "assistant",
                    content: `${t("chat.choice", { n: j + 2 })}\n${alt}`,
                  }}
                />
              ))}
            </Stack>
          ))
        )}
      </Stack>
    </Paper>
  );
}
