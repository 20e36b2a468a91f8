import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Drawer,
  FileButton,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  Title,
  Tooltip,
} from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import {
  type ChatCompletionRequest,
  DEFAULT_PLAYGROUND_PARAMS,
  findModel,
  MAX_COMPARE_PANELS,
  nChoicesError,
  type PlaygroundMessage,
  type PlaygroundMode,
  type PlaygroundPanel,
  PlaygroundSessionState,
  type PlaygroundToolCall,
  StopSequencesText,
  type ToolRunResult,
} from "@moonport/contracts";
import {
  IconAdjustments,
  IconCode,
  IconDownload,
  IconHistory,
  IconLayoutGrid,
  IconPlayerPlay,
  IconPlus,
  IconTool,
  IconUpload,
  IconX,
} from "@tabler/icons-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CurrentOrg } from "../../../components/console-kit/current-org.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { PageMeta } from "../../../components/page-meta.tsx";
import { ApiError } from "../../../lib/api.ts";
import { playgroundProjectsQuery } from "../api/get-projects.ts";
import { fetchSession } from "../api/get-sessions.ts";
import { playgroundKeys } from "../api/query-keys.ts";
import { createSession, updateSession } from "../api/save-session.ts";
import { functionToolsQuery, mcpServersQuery, officialToolsQuery, runToolCall } from "../api/tools.ts";
import { ExtractionFailed, UploadTooLarge, uploadForChat } from "../api/upload-file.ts";
import {
  buildChatRequest,
  emptyState,
  hasFiles,
  MODE_SWITCH,
  newMessage,
  newPanel,
  titleOf,
  withMode,
} from "../model/session.ts";
import type { PlaygroundTemplate } from "../model/templates.ts";
import { currentTools, entryFor, MAX_TOOL_STEPS, toolEntries } from "../model/tool-catalog.ts";
import { CodeDialog } from "./code-dialog.tsx";
import { type AttachedFile, Composer } from "./composer.tsx";
import { EditView } from "./edit-view.tsx";
import { HistoryDrawer } from "./history-drawer.tsx";
import { MessageView } from "./message-view.tsx";
import { ModelSelect, ParamsForm } from "./params-form.tsx";
import classes from "./playground.module.css";
import { RiddleMode } from "./riddle-mode.tsx";
import { RunFooter } from "./run-footer.tsx";
import { TemplatesDialog } from "./templates-dialog.tsx";
import { ToolsDrawer, type ToolsTab } from "./tools-drawer.tsx";
import { useRunner } from "./use-runner.ts";

const projectKey = (orgId: string) => `playground:project:${orgId}`;
const currentKey = (projectId: string) => `playground:current:${projectId}`;

function store(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage unavailable (private mode): the session is still saved server-side
  }
}
function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The conversation as read: a tool message is shown as the result inside the call it answers. */
function shownMessages(messages: PlaygroundMessage[]): PlaygroundMessage[] {
  const answered = new Set(messages.flatMap((m) => m.toolCalls?.map((c) => c.id) ?? []));
  return messages.filter((m) => m.role !== "tool" || !m.toolCallId || !answered.has(m.toolCallId));
}

/** /playground: chat, compare and edit against a project of the current organization. */
export function PlaygroundPage({ org }: { org: CurrentOrg }) {
  const { t } = useTranslation("playground");
  const projects = useQuery(playgroundProjectsQuery(org.id));
  const [projectId, setProjectId] = useState<string | null>(null);

  useEffect(() => {
    if (!projects.data || projectId) return;
    const saved = read(projectKey(org.id));
    const pick =
      projects.data.find((p) => p.value === saved) ?? projects.data.find((p) => p.isDefault) ?? projects.data[0];
    setProjectId(pick?.value ?? null);
  }, [projects.data, projectId, org.id]);

  return (
    <Stack gap="md" className={classes.root}>
      <PageMeta title={t("title")} />
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Title order={1} size="h3">
          {t("title")}
        </Title>
        {projects.data ? (
          <Select
            w={220}
            size="sm"
            aria-label={t("project")}
            placeholder={t("project")}
            data={projects.data.map((p) => ({ value: p.value, label: p.label }))}
            value={projectId}
            allowDeselect={false}
            onChange={(v) => {
              if (!v) return;
              store(projectKey(org.id), v);
              setProjectId(v);
            }}
            data-testid="project-select"
          />
        ) : null}
      </Group>
      {projects.isPending ? (
        <LoadingBlock />
      ) : projects.isError ? (
        <LoadError error={projects.error} onRetry={() => projects.refetch()} />
      ) : !projectId ? (
        <Alert color="yellow">{t("noProject")}</Alert>
      ) : (
        <Workbench key={projectId} org={org} projectId={projectId} />
      )}
    </Stack>
  );
}

function Workbench({ org, projectId }: { org: CurrentOrg; projectId: string }) {
  const { t } = useTranslation("playground");
  const qc = useQueryClient();
  const narrow = useMediaQuery("(max-width: 62em)") ?? false;
  const [state, setState] = useState<PlaygroundSessionState>(() => emptyState());
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [notice, setNotice] = useState<{ color: string; text: string } | null>(null);
  const [streaming, setStreaming] = useState<Record<string, string>>({});
  const [alternates, setAlternates] = useState<Record<string, string[]>>({});
  const [codeFor, setCodeFor] = useState<string | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [paramsFor, setParamsFor] = useState<string | null>(null);
  // `?tools=picker|functions|mcp` opens the tools drawer on that tab (links from the docs, the sweep).
  const [toolsTab, setToolsTab] = useState<ToolsTab | null>(() => {
    const v = new URLSearchParams(window.location.search).get("tools");
    return v === "picker" || v === "functions" || v === "mcp" ? v : null;
  });
  const official = useQuery(officialToolsQuery(org.id, projectId));
  const functionTools = useQuery(functionToolsQuery(org.id, projectId));
  const mcpServers = useQuery(mcpServersQuery(org.id, projectId));
  const entries = useMemo(
    () => toolEntries(official.data?.items ?? [], functionTools.data?.items ?? [], mcpServers.data?.items ?? []),
    [official.data, functionTools.data, mcpServers.data],
  );
  // Riddle mode has its own view; `?mode=riddle` opens it (links from elsewhere, the e2e).
  const [riddle, setRiddle] = useState(() => new URLSearchParams(window.location.search).get("mode") === "riddle");
  const runner = useRunner(org.id, projectId);
  const dirty = useRef(false);
  const saving = useRef<Promise<unknown> | null>(null);

  // Reload restores the current session of this project.
  useEffect(() => {
    const id = read(currentKey(projectId));
    if (!id) {
      setLoading(false);
      return;
    }
    fetchSession(org.id, projectId, id)
      .then((s) => {
        setState(s.state);
        setSessionId(s.id);
      })
      .catch(() => store(currentKey(projectId), null))
      .finally(() => setLoading(false));
  }, [org.id, projectId]);

  const change = useCallback((fn: (s: PlaygroundSessionState) => PlaygroundSessionState) => {
    dirty.current = true;
    setState(fn);
  }, []);

  // Saves a moment after the last change (and after each run), so history and reload always have it.
  useEffect(() => {
    if (!dirty.current || loading) return;
    if (!state.messages.length && !state.panels.some((p) => p.messages.length) && !state.template) return;
    const timer = setTimeout(() => {
      dirty.current = false;
      const snapshot = PlaygroundSessionState.safeParse(state);
      if (!snapshot.success) return;
      const run = async () => {
        await saving.current;
        if (sessionId) {
          await updateSession(org.id, projectId, sessionId, { state: snapshot.data });
        } else {
          const created = await createSession(org.id, projectId, {
            title: titleOf(snapshot.data, t("untitled")),
            state: snapshot.data,
          });
          setSessionId(created.id);
          store(currentKey(projectId), created.id);
        }
        await qc.invalidateQueries({ queryKey: playgroundKeys.sessions(org.id, projectId) });
      };
      saving.current = run().catch((e: Error) =>
        setNotice({ color: "red", text: t("errors.saveFailed", { reason: e.message }) }),
      );
    }, 700);
    return () => clearTimeout(timer);
  }, [state, loading, sessionId, org.id, projectId, qc, t]);

  // Escape stops every run.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && runner.anyRunning) runner.stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [runner]);

  const panel0 = state.panels[0]!;
  // A run waits until every panel's parameters pass the same rules the server checks (stop sequences, n).
  const stopInvalid = state.panels.some(
    (p) =>
      !StopSequencesText.safeParse(p.params.stop).success ||
      (!findModel(p.model)?.capabilities.reasoning && nChoicesError(p.model, p.params.n, p.params.temperature)),
  );

  /** Writes a message list: the session's (chat, edit) or a compare panel's. */
  const writeMessages = useCallback(
    (panelId: string | null, fn: (m: PlaygroundMessage[]) => PlaygroundMessage[]) =>
      change((s) =>
        panelId === null
          ? { ...s, messages: fn(s.messages) }
          : { ...s, panels: s.panels.map((p) => (p.id === panelId ? { ...p, messages: fn(p.messages) } : p)) },
      ),
    [change],
  );

  /** Writes one tool call of an answer (its state, then its result). */
  const patchCall = (target: string | null, answerId: string, callIndex: number, patch: Partial<PlaygroundToolCall>) =>
    writeMessages(target, (msgs) =>
      msgs.map((m) =>
        m.id === answerId && m.toolCalls
          ? { ...m, toolCalls: m.toolCalls.map((c, i) => (i === callIndex ? { ...c, ...patch } : c)) }
          : m,
      ),
    );

  /** Runs one tool call through …/playground/tool-calls; a tool nobody here provides is a failed call. */
  const runCall = async (call: PlaygroundToolCall, signal: AbortSignal): Promise<ToolRunResult> => {
    const entry = entryFor(call.name, entries);
    if (!entry) return { state: "failed", output: `Error: no tool named "${call.name}" is available`, durationMs: 0 };
    try {
      return await runToolCall(
        org.id,
        projectId,
        { kind: entry.kind, target: entry.target, name: entry.name, arguments: call.arguments },
        signal,
      );
    } catch (e) {
      const reason = e instanceof ApiError && e.code !== "network" ? e.message : t("errors.network");
      return { state: "failed", output: `Error: ${reason}`, durationMs: 0 };
    }
  };

  /**
   * One run: `base` is what the model sees; its answer goes after it, replacing anything later. In partial mode
   * a trailing assistant message is the prefix and the answer continues it. When the model answers with tool
   * calls, they run one by one (pending → executing → success / failed), their results follow as tool messages
   * and the model runs again — the tool loop — until it answers, the user stops it or MAX_TOOL_STEPS is reached.
   */
  const runPanel = async (panel: PlaygroundPanel, base: PlaygroundMessage[], target: string | null, step = 0) => {
    setNotice(null);
    const continuing = panel.params.partial && base.at(-1)?.role === "assistant";
    const prefix = continuing ? base.at(-1)! : null;
    const answer = prefix ?? newMessage("assistant");
    const prefixText = prefix?.content ?? "";
    let text = prefixText;
    let thought = "";
    writeMessages(target, () => (prefix ? base : [...base, answer]));
    setStreaming((s) => ({ ...s, [panel.id]: answer.id }));
    setAlternates((a) => ({ ...a, [answer.id]: [] }));
    const request = buildChatRequest({ system: state.system, tools: currentTools(state.tools, entries) }, panel, base);
    const result = await runner.run(
      panel.id,
      request,
      {
        onChoice: (index, content, reasoning) => {
          if (index === 0) {
            text = prefixText + content;
            thought = reasoning;
            writeMessages(target, (msgs) =>
              msgs.map((m) => (m.id === answer.id ? { ...m, content: text, ...(reasoning ? { reasoning } : {}) } : m)),
            );
          } else {
            setAlternates((a) => {
              const list = [...(a[answer.id] ?? [])];
              list[index - 1] = content;
              return { ...a, [answer.id]: list };
            });
          }
        },
        onToolCalls: (index, calls) => {
          if (index !== 0) return;
          writeMessages(target, (msgs) =>
            msgs.map((m) =>
              m.id === answer.id
                ? {
                    ...m,
                    toolCalls: calls.map((c) => ({
                      id: c.id,
                      name: c.name,
                      arguments: c.arguments,
                      state: "pending" as const,
                      ...(entryFor(c.name, entries) ? { kind: entryFor(c.name, entries)!.kind } : {}),
                    })),
                  }
                : m,
            ),
          );
        },
        onUsage: () => {},
      },
      step > 0 ? 60 : 5,
    );
    if (!result && !prefix)
      writeMessages(target, (msgs) => msgs.filter((m) => m.id !== answer.id || m.content || m.toolCalls?.length));
    setStreaming((s) => {
      const { [panel.id]: _, ...rest } = s;
      return rest;
    });
    dirty.current = true;
    setState((s) => ({ ...s }));
    if (!result || result.stopped || !result.toolCalls?.length) return;

    const calls: PlaygroundToolCall[] = result.toolCalls.map((c) => {
      const entry = entryFor(c.name, entries);
      return {
        id: c.id,
        name: c.name,
        arguments: c.arguments,
        state: "pending",
        ...(entry ? { kind: entry.kind } : {}),
      };
    });
    if (step + 1 >= MAX_TOOL_STEPS) {
      runner.patch(panel.id, { stepLimit: true });
      return;
    }
    const toolMessages: PlaygroundMessage[] = [];
    const finished = await runner.hold(panel.id, async (signal) => {
      for (const [i, call] of calls.entries()) {
        if (signal.aborted) return;
        patchCall(target, answer.id, i, { state: "executing" });
        const r = await runCall(call, signal);
        if (signal.aborted) {
          patchCall(target, answer.id, i, { state: "failed", output: t("tools.call.stopped") });
          return;
        }
        calls[i] = { ...call, state: r.state, output: r.output, durationMs: r.durationMs };
        patchCall(target, answer.id, i, calls[i]);
        toolMessages.push({ ...newMessage("tool", r.output), toolCallId: call.id, name: call.name });
      }
    });
    writeMessages(target, (msgs) => [...msgs, ...toolMessages]);
    if (!finished) return;
    const answered: PlaygroundMessage = {
      ...answer,
      content: text,
      ...(thought ? { reasoning: thought } : {}),
      toolCalls: calls,
    };
    await runPanel(panel, [...(prefix ? base.slice(0, -1) : base), answered, ...toolMessages], target, step + 1);
  };

  const readOnly = state.readOnly;
  const send = (text: string, images: string[], files: AttachedFile[]) => {
    const user: PlaygroundMessage = { ...newMessage("user", text), ...(images.length ? { images } : {}) };
    // The file-QA guide's way: each file's text is a system message before the question.
    const fileMessages: PlaygroundMessage[] = files.map((f) => ({
      ...newMessage("system", f.content),
      files: [f.file],
    }));
    if (state.mode === "compare") {
      for (const p of state.panels) void runPanel(p, [...p.messages, ...fileMessages, user], p.id);
    } else {
      void runPanel(panel0, [...state.messages, ...fileMessages, user], null);
    }
  };
  const upload = async (file: File): Promise<AttachedFile> => {
    try {
      return await uploadForChat(org.id, projectId, file);
    } catch (e) {
      const reason =
        e instanceof UploadTooLarge
          ? t("upload.tooLarge")
          : e instanceof ExtractionFailed
            ? t("upload.extractionFailed", { reason: e.message })
            : e instanceof ApiError && e.code !== "network"
              ? e.message
              : t("errors.network");
      throw new Error(t("upload.failed", { reason }));
    }
  };
  const pending =
    state.mode === "compare"
      ? state.panels.some((p) => p.messages.at(-1)?.role === "user")
      : state.messages.at(-1)?.role === "user";
  const runPending = () => {
    if (state.mode === "compare") {
      for (const p of state.panels) if (p.messages.at(-1)?.role === "user") void runPanel(p, p.messages, p.id);
    } else void runPanel(panel0, state.messages, null);
  };
  const runFrom = (i: number) => {
    const m = state.messages[i]!;
    const keep = m.role === "assistant" && !panel0.params.partial ? i : i + 1;
    void runPanel(panel0, state.messages.slice(0, keep), null);
  };

  const openTemplate = (tpl: PlaygroundTemplate) => {
    runner.stop();
    runner.reset();
    const conversation = tpl.turns.map((role, i) => newMessage(role, t(`templates.${tpl.id}.messages.${i}`)));
    const panels = tpl.models.map((m) => ({
      ...newPanel(m, { ...DEFAULT_PLAYGROUND_PARAMS, ...tpl.params }),
      messages: tpl.mode === "compare" ? conversation.map((c) => ({ ...c, id: `${c.id}-${m}` })) : [],
    }));
    dirty.current = true;
    setState({
      version: 1,
      mode: tpl.mode,
      system: t(`templates.${tpl.id}.system`),
      panels,
      messages: tpl.mode === "compare" ? [] : conversation,
      tools: tpl.tools ?? [],
      readOnly: false,
      template: tpl.id,
    });
    setSessionId(null);
    store(currentKey(projectId), null);
    setTemplatesOpen(false);
  };

  const newSession = () => {
    runner.stop();
    runner.reset();
    dirty.current = false;
    setState(emptyState(state.mode));
    setSessionId(null);
    store(currentKey(projectId), null);
  };

  const exportSession = () => {
    const blob = new Blob([JSON.stringify(state, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `playground-${new Date().toISOString().slice(0, 19).replaceAll(":", "-")}.json`;
    a.click();
    URL.revokeObjectURL(url);
  };

  const importSession = async (file: File | null) => {
    if (!file) return;
    let parsed: ReturnType<typeof PlaygroundSessionState.safeParse>;
    try {
      parsed = PlaygroundSessionState.safeParse(JSON.parse(await file.text()));
    } catch {
      setNotice({ color: "red", text: t("io.importInvalid") });
      return;
    }
    if (!parsed.success) {
      setNotice({ color: "red", text: t("io.importInvalid") });
      return;
    }
    runner.stop();
    runner.reset();
    const withFiles = hasFiles(parsed.data);
    dirty.current = true;
    setState({ ...parsed.data, readOnly: parsed.data.readOnly || withFiles });
    setSessionId(null);
    store(currentKey(projectId), null);
    setNotice({ color: "teal", text: t("io.imported") });
  };

  const openSession = async (id: string) => {
    try {
      const s = await fetchSession(org.id, projectId, id);
      runner.stop();
      runner.reset();
      dirty.current = false;
      setState(s.state);
      setSessionId(s.id);
      store(currentKey(projectId), s.id);
      setHistoryOpen(false);
    } catch (e) {
      setNotice({ color: "red", text: t("errors.loadFailed", { reason: (e as Error).message }) });
    }
  };

  const codeRequest: ChatCompletionRequest = useMemo(() => {
    const p = state.panels.find((x) => x.id === codeFor) ?? panel0;
    return buildChatRequest(state, p, state.mode === "compare" ? p.messages : state.messages);
  }, [state, codeFor, panel0]);

  const setPanel = (id: string, patch: Partial<PlaygroundPanel>) =>
    change((s) => ({ ...s, panels: s.panels.map((p) => (p.id === id ? { ...p, ...patch } : p)) }));

  const vision = state.panels.every((p) => findModel(p.model)?.capabilities.vision);
  const paramsPanel = state.panels.find((p) => p.id === paramsFor);

  if (loading) return <LoadingBlock />;

  const modeSwitch = (
    <SegmentedControl
      value={riddle ? "riddle" : state.mode}
      onChange={(v) => {
        if (v === "riddle") {
          setRiddle(true);
          return;
        }
        setRiddle(false);
        change((s) => withMode(s, v as PlaygroundMode));
      }}
      data={MODE_SWITCH.map((m) => ({
        value: m.value,
        disabled: !m.available,
        label: m.available ? t(`modes.${m.value}`) : `${t(`modes.${m.value}`)} · ${t("modes.soon")}`,
      }))}
      disabled={runner.anyRunning}
      aria-label={t("modes.label")}
      data-testid="mode-switch"
    />
  );
  if (riddle) return <RiddleMode org={org} projectId={projectId} modeSwitch={modeSwitch} />;

  const toolbar = (
    <Group justify="space-between" gap="xs" className={classes.toolbar}>
      <SegmentedControl
        value={state.mode}
        onChange={(v) => {
          if (v === "riddle") {
            setRiddle(true);
            return;
          }
          change((s) => withMode(s, v as PlaygroundMode));
        }}
        data={MODE_SWITCH.map((m) => ({
          value: m.value,
          disabled: !m.available,
          label: m.available ? t(`modes.${m.value}`) : `${t(`modes.${m.value}`)} · ${t("modes.soon")}`,
        }))}
        disabled={runner.anyRunning}
        aria-label={t("modes.label")}
        data-testid="mode-switch"
      />
      <Group gap={6} wrap="wrap">
        <Button
          size="xs"
          variant="default"
          leftSection={<IconLayoutGrid size={14} />}
          onClick={() => setTemplatesOpen(true)}
        >
          {t("templates.open")}
        </Button>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconHistory size={14} />}
          onClick={() => setHistoryOpen(true)}
        >
          {t("history.open")}
        </Button>
        <Button size="xs" variant="default" leftSection={<IconPlus size={14} />} onClick={newSession}>
          {t("new")}
        </Button>
        <FileButton onChange={(f) => void importSession(f)} accept="application/json,.json">
          {(props) => (
            <Button {...props} size="xs" variant="default" leftSection={<IconUpload size={14} />} data-testid="import">
              {t("io.import")}
            </Button>
          )}
        </FileButton>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} />}
          onClick={exportSession}
          data-testid="export"
        >
          {t("io.export")}
        </Button>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconTool size={14} />}
          onClick={() => setToolsTab("picker")}
          data-testid="tools-open"
        >
          {t("tools.open", { count: state.tools.length })}
        </Button>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconCode size={14} />}
          onClick={() => setCodeFor(panel0.id)}
          data-testid="view-code"
        >
          {t("code.open")}
        </Button>
      </Group>
    </Group>
  );

  const systemPrompt = (
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
  );

  const notices = (
    <>
      {readOnly ? (
        <Alert color="yellow" data-testid="read-only">
          {t("io.readOnly")}
        </Alert>
      ) : null}
      {notice ? (
        <Alert
          color={notice.color}
          withCloseButton
          onClose={() => setNotice(null)}
          closeButtonLabel={t("common:cancel")}
          data-testid="notice"
        >
          {notice.text}
        </Alert>
      ) : null}
      {state.tools.length ? (
        <Text size="xs" c="dimmed" data-testid="tools-count">
          {t("tools.count", { count: state.tools.length, names: state.tools.map((x) => x.function.name).join(", ") })}
        </Text>
      ) : null}
    </>
  );

  const composer = (
    <Stack gap={6}>
      {pending && !runner.anyRunning && !readOnly ? (
        <Group>
          <Button
            size="xs"
            leftSection={<IconPlayerPlay size={14} />}
            onClick={runPending}
            disabled={stopInvalid}
            data-testid="run"
          >
            {t("chat.run")}
          </Button>
        </Group>
      ) : null}
      <Composer
        running={runner.anyRunning}
        disabled={readOnly || stopInvalid}
        disabledReason={readOnly ? t("io.readOnlyShort") : t("errors.fixParams")}
        vision={vision}
        onSend={send}
        onStop={() => runner.stop()}
        onUpload={upload}
      />
    </Stack>
  );

  /** The dialogs every mode shares (code, templates, history). */
  const dialogs = (
    <>
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
      <TemplatesDialog opened={templatesOpen} onClose={() => setTemplatesOpen(false)} onPick={openTemplate} />
      <HistoryDrawer
        opened={historyOpen}
        onClose={() => setHistoryOpen(false)}
        orgId={org.id}
        projectId={projectId}
        currentId={sessionId}
        onOpen={(id) => void openSession(id)}
        onDeleted={(id) => id === sessionId && newSession()}
      />
    </>
  );

  const errorOf = (panelId: string) => runner.status[panelId]?.error;

  if (state.mode === "compare") {
    return (
      <Stack gap="md">
        {toolbar}
        {notices}
        {systemPrompt}
        <div
          className={classes.compare}
          style={{ "--panels": state.panels.length } as React.CSSProperties}
          data-testid="compare-view"
        >
          {state.panels.map((p, i) => (
            <Paper key={p.id} withBorder p="sm" radius="md" data-testid="compare-panel">
              {/* Full height with a growing conversation: the footers of the columns line up. */}
              <Stack gap="xs" h="100%">
                <Group gap={4} wrap="nowrap" align="flex-end">
                  <Box style={{ flex: 1, minWidth: 0 }}>
                    <ModelSelect
                      label={t("compare.model", { n: i + 1 })}
                      value={p.model}
                      onChange={(model) => setPanel(p.id, { model })}
                      currency={org.currency}
                      disabled={runner.status[p.id]?.running}
                    />
                  </Box>
                </Group>
                <Group gap={4}>
                  <Button
                    size="compact-xs"
                    variant="default"
                    leftSection={<IconAdjustments size={12} />}
                    onClick={() => setParamsFor(p.id)}
                  >
                    {t("params.title")}
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="default"
                    leftSection={<IconCode size={12} />}
                    onClick={() => setCodeFor(p.id)}
                  >
                    {t("code.open")}
                  </Button>
                  {state.panels.length > 1 ? (
                    <Tooltip label={t("compare.remove")} withArrow>
                      <ActionIcon
                        size="sm"
                        variant="subtle"
                        color="gray"
                        aria-label={t("compare.remove")}
                        onClick={() => change((s) => ({ ...s, panels: s.panels.filter((x) => x.id !== p.id) }))}
                        disabled={runner.anyRunning}
                      >
                        <IconX size={14} />
                      </ActionIcon>
                    </Tooltip>
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
                {errorOf(p.id) ? (
                  <Alert color="red" variant="light" data-testid="run-error">
                    {errorOf(p.id)}
                  </Alert>
                ) : null}
                <RunFooter status={runner.status[p.id]} currency={org.currency} />
              </Stack>
            </Paper>
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
              disabled={runner.anyRunning}
              data-testid="add-panel"
            >
              {t("compare.add")}
            </Button>
          </Group>
        ) : null}
        {composer}
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
              onChange={(params) => setPanel(paramsPanel.id, { params })}
            />
          ) : null}
        </Drawer>
        {dialogs}
      </Stack>
    );
  }

  const settings = (
    <Stack gap="sm">
      <ModelSelect
        value={panel0.model}
        onChange={(model) => setPanel(panel0.id, { model })}
        currency={org.currency}
        disabled={runner.anyRunning}
      />
      <ParamsForm params={panel0.params} model={panel0.model} onChange={(params) => setPanel(panel0.id, { params })} />
    </Stack>
  );

  return (
    <Stack gap="md">
      {toolbar}
      {notices}
      <div className={classes.layout}>
        <Stack gap="sm" style={{ minWidth: 0 }}>
          {narrow ? (
            <Group>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconAdjustments size={14} />}
                onClick={() => setParamsFor(panel0.id)}
              >
                {t("params.title")} · {panel0.model}
              </Button>
            </Group>
          ) : null}
          {systemPrompt}
          {state.mode === "edit" ? (
            <EditView
              messages={state.messages}
              onChange={(messages) => change((s) => ({ ...s, messages }))}
              onRunFrom={runFrom}
              running={runner.anyRunning}
              readOnly={readOnly}
              streamingId={streaming[panel0.id] ?? null}
            />
          ) : (
            <Paper withBorder radius="md" className={classes.conversation} data-testid="chat-view">
              <Stack gap="xs">
                {state.messages.length === 0 ? (
                  <Text size="sm" c="dimmed" p="sm">
                    {t("chat.empty")}
                  </Text>
                ) : (
                  shownMessages(state.messages).map((m) => (
                    <Stack key={m.id} gap={4}>
                      <MessageView message={m} streaming={streaming[panel0.id] === m.id} />
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
          )}
          {errorOf(panel0.id) ? (
            <Alert color="red" variant="light" data-testid="run-error">
              {errorOf(panel0.id)}
            </Alert>
          ) : null}
          {state.mode === "edit" ? (
            runner.anyRunning ? (
              <Group>
                <Button size="xs" color="red" onClick={() => runner.stop()} data-testid="stop">
                  {t("chat.stop")}
                </Button>
              </Group>
            ) : null
          ) : (
            composer
          )}
          <RunFooter status={runner.status[panel0.id]} currency={org.currency} />
        </Stack>
        {narrow ? null : (
          <Paper withBorder p="sm" radius="md" aria-label={t("params.title")} component="aside">
            {settings}
          </Paper>
        )}
      </div>
      <Drawer
        opened={narrow && paramsFor === panel0.id}
        onClose={() => setParamsFor(null)}
        title={t("params.title")}
        position="right"
        className={classes.root}
      >
        {settings}
      </Drawer>
      {dialogs}
    </Stack>
  );
}
