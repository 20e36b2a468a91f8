import { Stack, Textarea } from "@mantine/core";
import {
  type ChatCompletionRequest,
  findModel,
  nChoicesError,
  type PlaygroundPanel,
  type PlaygroundSessionState,
  StopSequencesText,
} from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CurrentOrg } from "../../../components/console-kit/current-org.ts";
import { LoadingBlock } from "../../../components/console-kit/states.tsx";
import { playgroundLimitsQuery } from "../api/get-limits.ts";
import { functionToolsQuery, mcpServersQuery, officialToolsQuery } from "../api/tools.ts";
import { buildChatRequest, withMode } from "../model/session.ts";
import { toolEntries } from "../model/tool-catalog.ts";
import { CodeDialog } from "./code-dialog.tsx";
import { CompareView } from "./compare-view.tsx";
import { HistoryDrawer } from "./history-drawer.tsx";
import { ModeSwitch } from "./mode-switch.tsx";
import { RiddleMode } from "./riddle-mode.tsx";
import { SingleView } from "./single-view.tsx";
import { TemplatesDialog } from "./templates-dialog.tsx";
import { ToolsDrawer, type ToolsTab } from "./tools-drawer.tsx";
import { useChatUpload } from "./use-chat-upload.ts";
import { usePanelRuns } from "./use-panel-runs.ts";
import { usePlaygroundSession } from "./use-playground-session.ts";
import { useRunner } from "./use-runner.ts";
import { WorkbenchComposer } from "./workbench-composer.tsx";
import { type Notice, WorkbenchNotices } from "./workbench-notices.tsx";
import { WorkbenchToolbar } from "./workbench-toolbar.tsx";

/** A run waits until every panel's parameters pass the same rules the server checks (stop sequences, n). */
function paramsInvalid(state: PlaygroundSessionState): boolean {
  return state.panels.some(
    (p) =>
      !StopSequencesText.safeParse(p.params.stop).success ||
      (!findModel(p.model)?.capabilities.reasoning && nChoicesError(p.model, p.params.n, p.params.temperature)),
  );
}

/** What a link asked for: `?mode=riddle` opens riddle mode, `?tools=picker|functions|mcp` the tools drawer. */
function linkedView(): { riddle: boolean; tools: ToolsTab | null } {
  const q = new URLSearchParams(window.location.search);
  const tools = q.get("tools");
  return {
    riddle: q.get("mode") === "riddle",
    tools: tools === "picker" || tools === "functions" || tools === "mcp" ? tools : null,
  };
}

/** The playground of one project: its session in chat, compare, edit or riddle mode, with the shared dialogs. */
export function Workbench({ org, projectId }: { org: CurrentOrg; projectId: string }) {
  const { t } = useTranslation("playground");
  const [notice, setNotice] = useState<Notice | null>(null);
  const [codeFor, setCodeFor] = useState<string | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [toolsTab, setToolsTab] = useState<ToolsTab | null>(() => linkedView().tools);
  const [riddle, setRiddle] = useState(() => linkedView().riddle);
  const official = useQuery(officialToolsQuery(org.id, projectId));
  const functionTools = useQuery(functionToolsQuery(org.id, projectId));
  const mcpServers = useQuery(mcpServersQuery(org.id, projectId));
  const entries = useMemo(
    () => toolEntries(official.data?.items ?? [], functionTools.data?.items ?? [], mcpServers.data?.items ?? []),
    [official.data, functionTools.data, mcpServers.data],
  );
  const limits = useQuery(playgroundLimitsQuery(org.id));
  const runner = useRunner(org.id, projectId, limits.data?.tier.concurrency);
  const session = usePlaygroundSession(org.id, projectId, {
    resetRuns: () => {
      runner.stop();
      runner.reset();
    },
    onNotice: setNotice,
  });
  const { state, change } = session;
  const runs = usePanelRuns({
    orgId: org.id,
    projectId,
    state,
    entries,
    runner,
    change,
    onRun: () => setNotice(null),
  });
  const upload = useChatUpload(org.id, projectId);

  // Escape stops every run.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && runner.anyRunning) runner.stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [runner]);

  const panel0 = state.panels[0]!;
  const codeRequest: ChatCompletionRequest = useMemo(() => {
    const p = state.panels.find((x) => x.id === codeFor) ?? panel0;
    return buildChatRequest(state, p, state.mode === "compare" ? p.messages : state.messages);
  }, [state, codeFor, panel0]);

  if (session.loading) return <LoadingBlock />;

  const modeSwitch = (
    <ModeSwitch
      value={riddle ? "riddle" : state.mode}
      onChange={(v) => {
        setRiddle(v === "riddle");
        if (v !== "riddle") change((s) => withMode(s, v));
      }}
      disabled={runner.anyRunning}
    />
  );
  if (riddle) return <RiddleMode org={org} projectId={projectId} modeSwitch={modeSwitch} />;

  const readOnly = state.readOnly;
  const setPanel = (id: string, patch: Partial<PlaygroundPanel>) =>
    change((s) => ({ ...s, panels: s.panels.map((p) => (p.id === id ? { ...p, ...patch } : p)) }));
  const invalid = paramsInvalid(state);
  const view = {
    state,
    currency: org.currency,
    status: runner.status,
    anyRunning: runner.anyRunning,
    setPanel,
    systemPrompt: (
      <Textarea
        label={t("system.label")}
        placeholder={t("system.placeholder")}
        autosize
        minRows={1}
        maxRows={6}
        value={state.system}
        onChange={(e) => {
          const v = e.currentTarget.value;
          change((s) => ({ ...s, system: v }));
        }}
        readOnly={readOnly}
        data-testid="system-prompt"
      />
    ),
    composer: (
      <WorkbenchComposer
        pending={runs.pending}
        running={runner.anyRunning}
        readOnly={readOnly}
        paramsInvalid={invalid}
        vision={state.panels.every((p) => findModel(p.model)?.capabilities.vision)}
        onRunPending={runs.runPending}
        onSend={runs.send}
        onStop={() => runner.stop()}
        onUpload={upload}
      />
    ),
  };

  return (
    <Stack gap="md">
      <WorkbenchToolbar
        modeSwitch={modeSwitch}
        toolCount={state.tools.length}
        onTemplates={() => setTemplatesOpen(true)}
        onHistory={() => setHistoryOpen(true)}
        onNew={session.newSession}
        onImport={(f) => void session.importSession(f)}
        onExport={session.exportSession}
        onTools={() => setToolsTab("picker")}
        onCode={() => setCodeFor(panel0.id)}
      />
      <WorkbenchNotices state={state} notice={notice} onDismiss={() => setNotice(null)} />
      {state.mode === "compare" ? (
        <CompareView {...view} streaming={runs.streaming} change={change} onCode={setCodeFor} />
      ) : (
        <SingleView
          {...view}
          streamingId={runs.streaming[panel0.id] ?? null}
          alternates={runs.alternates}
          onMessages={(messages) => change((s) => ({ ...s, messages }))}
          onRunFrom={runs.runFrom}
          onStop={() => runner.stop()}
        />
      )}
      <CodeDialog opened={!!codeFor} onClose={() => setCodeFor(null)} request={codeRequest} />
      <ToolsDrawer
        opened={!!toolsTab}
        onClose={() => setToolsTab(null)}
        tab={toolsTab ?? "picker"}
        onTab={setToolsTab}
        orgId={org.id}
        projectId={projectId}
        entries={entries}
        functions={functionTools.data?.items ?? []}
        servers={mcpServers.data?.items ?? []}
        tools={state.tools}
        onTools={(tools) => change((s) => ({ ...s, tools }))}
        readOnly={readOnly}
      />
      <TemplatesDialog
        opened={templatesOpen}
        onClose={() => setTemplatesOpen(false)}
        onPick={(tpl) => {
          session.openTemplate(tpl);
          setTemplatesOpen(false);
        }}
      />
      <HistoryDrawer
        opened={historyOpen}
        onClose={() => setHistoryOpen(false)}
        orgId={org.id}
        projectId={projectId}
        currentId={session.sessionId}
        onOpen={(id) => void session.openSession(id).then((ok) => ok && setHistoryOpen(false))}
        onDeleted={(id) => id === session.sessionId && session.newSession()}
      />
    </Stack>
  );
}
