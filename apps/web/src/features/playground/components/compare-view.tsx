import { Box, Button, Drawer, Group, Paper, Stack, Text } from "@mantine/core";
import {
  type Currency,
  MAX_COMPARE_PANELS,
  type PlaygroundPanel,
  type PlaygroundSessionState,
} from "@moonport/contracts";
import { IconAdjustments, IconCode, IconPlus, IconX } from "@tabler/icons-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "../../../components/icon-button.tsx";
import { newPanel } from "../model/session.ts";
import { MessageView } from "./message-view.tsx";
import { ModelSelect, ParamsForm } from "./params-form.tsx";
import classes from "./playground.module.css";
import { RunError } from "./run-error.tsx";
import { RunFooter } from "./run-footer.tsx";
import { shownMessages } from "./shown-messages.ts";
import type { RunStatus } from "./use-runner.ts";

type Change = (fn: (s: PlaygroundSessionState) => PlaygroundSessionState) => void;

interface CompareProps {
  state: PlaygroundSessionState;
  currency: Currency;
  status: Record<string, RunStatus>;
  anyRunning: boolean;
  streaming: Record<string, string>;
  change: Change;
  setPanel: (id: string, patch: Partial<PlaygroundPanel>) => void;
  onCode: (panelId: string) => void;
  systemPrompt: ReactNode;
  composer: ReactNode;
}

/** Compare mode: one column per model, each with its parameters, code, conversation and run footer. */
export function CompareView(props: CompareProps) {
  const { t } = useTranslation("playground");
  const { state, anyRunning, change } = props;
  const [paramsFor, setParamsFor] = useState<string | null>(null);
  const paramsPanel = state.panels.find((p) => p.id === paramsFor);
  const panel0 = state.panels[0]!;
  return (
    <>
      {props.systemPrompt}
      <div
        className={classes.compare}
        style={{ "--panels": state.panels.length } as React.CSSProperties}
        data-testid="compare-view"
      >
        {state.panels.map((p, i) => (
          <ComparePanel key={p.id} {...props} panel={p} index={i} onParams={() => setParamsFor(p.id)} />
        ))}
      </div>
      {state.panels.length < MAX_COMPARE_PANELS ? (
        <Group>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPlus size={14} />}
            onClick={() =>
              change((s) => ({
                ...s,
                panels: [...s.panels, { ...newPanel("kimi-k2-turbo-preview", panel0.params), messages: [] }],
              }))
            }
            disabled={anyRunning}
            data-testid="add-panel"
          >
            {t("compare.add")}
          </Button>
        </Group>
      ) : null}
      {props.composer}
      <Drawer
        opened={!!paramsPanel}
        onClose={() => setParamsFor(null)}
        title={t("params.title")}
        position="right"
        className={classes.root}
      >
        {paramsPanel ? (
          <ParamsForm
            params={paramsPanel.params}
            model={paramsPanel.model}
            onChange={(params) => props.setPanel(paramsPanel.id, { params })}
          />
        ) : null}
      </Drawer>
    </>
  );
}

function ComparePanel({
  state,
  currency,
  status,
  anyRunning,
  streaming,
  change,
  setPanel,
  onCode,
  panel: p,
  index,
  onParams,
}: CompareProps & { panel: PlaygroundPanel; index: number; onParams: () => void }) {
  const { t } = useTranslation("playground");
  return (
    <Paper withBorder p="sm" radius="md" data-testid="compare-panel">
      {/* Full height with a growing conversation: the footers of the columns line up. */}
      <Stack gap="xs" h="100%">
        <Group gap={4} wrap="nowrap" align="flex-end">
          <Box style={{ flex: 1, minWidth: 0 }}>
            <ModelSelect
              label={t("compare.model", { n: index + 1 })}
              value={p.model}
              onChange={(model) => setPanel(p.id, { model })}
              currency={currency}
              disabled={status[p.id]?.running}
            />
          </Box>
        </Group>
        <Group gap={4}>
          <Button size="compact-xs" variant="default" leftSection={<IconAdjustments size={12} />} onClick={onParams}>
            {t("params.title")}
          </Button>
          <Button size="compact-xs" variant="default" leftSection={<IconCode size={12} />} onClick={() => onCode(p.id)}>
            {t("code.open")}
          </Button>
          {state.panels.length > 1 ? (
            <IconButton
              label={t("compare.remove")}
              size="sm"
              variant="subtle"
              color="gray"
              onClick={() => change((s) => ({ ...s, panels: s.panels.filter((x) => x.id !== p.id) }))}
              disabled={anyRunning}
            >
              <IconX size={14} />
            </IconButton>
          ) : null}
        </Group>
        <Stack gap="xs" className={classes.conversation} style={{ flex: 1 }}>
          {p.messages.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t("compare.empty")}
            </Text>
          ) : (
            shownMessages(p.messages).map((m) => (
              <MessageView key={m.id} message={m} streaming={streaming[p.id] === m.id} />
            ))
          )}
        </Stack>
        <RunError status={status[p.id]} />
        <RunFooter status={status[p.id]} currency={currency} />
      </Stack>
    </Paper>
  );
}
