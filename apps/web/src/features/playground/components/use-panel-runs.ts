import type {
  PlaygroundMessage,
  PlaygroundPanel,
  PlaygroundSessionState,
  PlaygroundToolCall,
  ToolRunResult,
} from "@moonport/contracts";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../lib/api.ts";
import { runToolCall } from "../api/tools.ts";
import { buildChatRequest, newMessage } from "../model/session.ts";
import { currentTools, entryFor, MAX_TOOL_STEPS, type ToolEntry } from "../model/tool-catalog.ts";
import type { AttachedFile } from "./composer.tsx";
import type { useRunner } from "./use-runner.ts";

type Change = (fn: (s: PlaygroundSessionState) => PlaygroundSessionState) => void;

/**
 * Runs of the session's conversations: sending, running a pending or an edited conversation, streaming answers
 * into their messages (extra choices aside as alternates) and the tool loop. A target `null` is the session's
 * own conversation (chat, edit); a panel id is that compare panel's.
 */
export function usePanelRuns({
  orgId,
  projectId,
  state,
  entries,
  runner,
  change,
  onRun,
}: {
  orgId: string;
  projectId: string;
  state: PlaygroundSessionState;
  entries: ToolEntry[];
  runner: ReturnType<typeof useRunner>;
  change: Change;
  /** Called as a run starts (clears the last notice). */
  onRun: () => void;
}) {
  const { t } = useTranslation("playground");
  /** The message each panel is streaming into. */
  const [streaming, setStreaming] = useState<Record<string, string>>({});
  /** Choices 2…n of an answer, by the answer's id. */
  const [alternates, setAlternates] = useState<Record<string, string[]>>({});

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

  const pendingCalls = (calls: { id: string; name: string; arguments: string }[]): PlaygroundToolCall[] =>
    calls.map((c) => {
      const entry = entryFor(c.name, entries);
      return {
        id: c.id,
        name: c.name,
        arguments: c.arguments,
        state: "pending",
        ...(entry ? { kind: entry.kind } : {}),
      };
    });

  /** Runs one tool call through …/playground/tool-calls; a tool nobody here provides is a failed call. */
  const runCall = async (call: PlaygroundToolCall, signal: AbortSignal): Promise<ToolRunResult> => {
    const entry = entryFor(call.name, entries);
    if (!entry) return { state: "failed", output: `Error: no tool named "${call.name}" is available`, durationMs: 0 };
    try {
      return await runToolCall(
        orgId,
        projectId,
        { kind: entry.kind, target: entry.target, name: entry.name, arguments: call.arguments },
        signal,
      );
    } catch (e) {
      const reason = e instanceof ApiError && e.code !== "network" ? e.message : t("errors.network");
      return { state: "failed", output: `Error: ${reason}`, durationMs: 0 };
    }
  };

  /** Runs the model's tool calls one by one; their results as tool messages, or null when the user stopped. */
  const runCalls = async (panelId: string, target: string | null, answerId: string, calls: PlaygroundToolCall[]) => {
    const toolMessages: PlaygroundMessage[] = [];
    const finished = await runner.hold(panelId, async (signal) => {
      for (const [i, call] of calls.entries()) {
        if (signal.aborted) return;
        patchCall(target, answerId, i, { state: "executing" });
        const r = await runCall(call, signal);
        if (signal.aborted) {
          patchCall(target, answerId, i, { state: "failed", output: t("tools.call.stopped") });
          return;
        }
        calls[i] = { ...call, state: r.state, output: r.output, durationMs: r.durationMs };
        patchCall(target, answerId, i, calls[i]);
        toolMessages.push({ ...newMessage("tool", r.output), toolCallId: call.id, name: call.name });
      }
    });
    writeMessages(target, (msgs) => [...msgs, ...toolMessages]);
    return finished ? toolMessages : null;
  };

  /**
   * One run: `base` is what the model sees; its answer goes after it, replacing anything later. In partial mode
   * a trailing assistant message is the prefix and the answer continues it. When the model answers with tool
   * calls, they run one by one (pending → executing → success / failed), their results follow as tool messages
   * and the model runs again — the tool loop — until it answers, the user stops it or MAX_TOOL_STEPS is reached.
   */
  const runPanel = async (panel: PlaygroundPanel, base: PlaygroundMessage[], target: string | null, step = 0) => {
    onRun();
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
            msgs.map((m) => (m.id === answer.id ? { ...m, toolCalls: pendingCalls(calls) } : m)),
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
    // Marks the session changed so the finished run is saved.
    change((s) => ({ ...s }));
    if (!result || result.stopped || !result.toolCalls?.length) return;

    const calls = pendingCalls(result.toolCalls);
    if (step + 1 >= MAX_TOOL_STEPS) {
      runner.patch(panel.id, { stepLimit: true });
      return;
    }
    const toolMessages = await runCalls(panel.id, target, answer.id, calls);
    if (!toolMessages) return;
    const answered: PlaygroundMessage = {
      ...answer,
      content: text,
      ...(thought ? { reasoning: thought } : {}),
      toolCalls: calls,
    };
    await runPanel(panel, [...(prefix ? base.slice(0, -1) : base), answered, ...toolMessages], target, step + 1);
  };

  const panel0 = state.panels[0]!;
  const compare = state.mode === "compare";

  const send = (text: string, images: string[], files: AttachedFile[]) => {
    const user: PlaygroundMessage = { ...newMessage("user", text), ...(images.length ? { images } : {}) };
    // The file-QA guide's way: each file's text is a system message before the question.
    const fileMessages: PlaygroundMessage[] = files.map((f) => ({
      ...newMessage("system", f.content),
      files: [f.file],
    }));
    if (compare) {
      for (const p of state.panels) void runPanel(p, [...p.messages, ...fileMessages, user], p.id);
    } else {
      void runPanel(panel0, [...state.messages, ...fileMessages, user], null);
    }
  };

  /** The conversation (or a compare panel's) ends with the user's message: Run answers it. */
  const pending = compare
    ? state.panels.some((p) => p.messages.at(-1)?.role === "user")
    : state.messages.at(-1)?.role === "user";
  const runPending = () => {
    if (compare) {
      for (const p of state.panels) if (p.messages.at(-1)?.role === "user") void runPanel(p, p.messages, p.id);
    } else void runPanel(panel0, state.messages, null);
  };

  /** Edit mode: runs the conversation up to message `i` (regenerating it when it is the model's). */
  const runFrom = (i: number) => {
    const m = state.messages[i]!;
    const keep = m.role === "assistant" && !panel0.params.partial ? i : i + 1;
    void runPanel(panel0, state.messages.slice(0, keep), null);
  };

  return { streaming, alternates, send, pending, runPending, runFrom };
}
