import {
  type ChatCompletionRequest,
  type ChatRequestMessage,
  DEFAULT_PLAYGROUND_PARAMS,
  findModel,
  MAX_COMPARE_PANELS,
  type PlaygroundMessage,
  type PlaygroundMode,
  type PlaygroundPanel,
  type PlaygroundParams,
  type PlaygroundRole,
  type PlaygroundSessionState,
  splitStopSequences,
} from "@moonport/contracts";

/** Mode switch entries. Riddle mode is not a session mode: it has its own view (components/riddle-mode.tsx). */
export const MODE_SWITCH: { value: PlaygroundMode | "riddle"; available: boolean }[] = [
  { value: "chat", available: true },
  { value: "compare", available: true },
  { value: "edit", available: true },
  { value: "riddle", available: true },
];

export const DEFAULT_MODEL = "kimi-k2-0905-preview";

let seq = 0;
/** Ids of messages and panels: unique within a page, stable across saves. */
export function localId(prefix: string): string {
  seq += 1;
  return `${prefix}${Date.now().toString(36)}${seq.toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export function newMessage(role: PlaygroundRole, content = ""): PlaygroundMessage {
  return { id: localId("m"), role, content };
}

export function newPanel(model = DEFAULT_MODEL, params: PlaygroundParams = DEFAULT_PLAYGROUND_PARAMS): PlaygroundPanel {
  return { id: localId("p"), model, params: { ...params }, messages: [] };
}

export function emptyState(mode: PlaygroundMode = "chat"): PlaygroundSessionState {
  return {
    version: 1,
    mode,
    system: "",
    panels: mode === "compare" ? [newPanel(), newPanel("moonshot-v1-32k")] : [newPanel()],
    messages: [],
    tools: [],
    readOnly: false,
  };
}

/** Switching modes keeps the conversation; compare needs two panels to be useful, the others one. */
export function withMode(state: PlaygroundSessionState, mode: PlaygroundMode): PlaygroundSessionState {
  let panels = state.panels;
  if (mode === "compare" && panels.length < 2) panels = [...panels, newPanel("moonshot-v1-32k", panels[0]?.params)];
  if (mode !== "compare") panels = panels.slice(0, 1).map((p) => ({ ...p, messages: [] }));
  return { ...state, mode, panels: panels.slice(0, MAX_COMPARE_PANELS) };
}

function wireMessage(m: PlaygroundMessage): ChatRequestMessage {
  if (m.role === "user" && m.images?.length) {
    return {
      role: "user",
      content: [
        ...m.images.map((url) => ({ type: "image_url" as const, image_url: { url } })),
        ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
      ],
    };
  }
  if (m.role === "tool") return { role: "tool", content: m.content, tool_call_id: m.toolCallId ?? "", name: m.name };
  if (m.role === "assistant" && m.toolCalls?.length) {
    return {
      role: "assistant",
      content: m.content,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: c.name === "$web_search" ? "builtin_function" : "function",
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { role: m.role, content: m.content, ...(m.name ? { name: m.name } : {}) };
}

/**
 * The /v1 request a run sends (and View code shows): system prompt, the conversation up to and including
 * `messages`, the panel's parameters, the session's tools. Partial mode sends the last assistant message as the
 * prefix to continue (docs/api-compat.md §2.3).
 */
export function buildChatRequest(
  state: Pick<PlaygroundSessionState, "system" | "tools">,
  panel: Pick<PlaygroundPanel, "model" | "params">,
  messages: PlaygroundMessage[],
  stream = true,
): ChatCompletionRequest {
  const p = panel.params;
  const model = findModel(panel.model);
  const wire: ChatRequestMessage[] = [];
  if (state.system.trim()) wire.push({ role: "system", content: state.system });
  for (const m of messages) wire.push(wireMessage(m));
  const last = wire[wire.length - 1];
  if (p.partial && last?.role === "assistant") last.partial = true;
  const stop = splitStopSequences(p.stop);
  const req: ChatCompletionRequest = {
    model: panel.model,
    messages: wire,
    temperature: p.temperature,
    top_p: p.topP,
    max_tokens: p.maxTokens,
    ...(p.presencePenalty ? { presence_penalty: p.presencePenalty } : {}),
    ...(p.frequencyPenalty ? { frequency_penalty: p.frequencyPenalty } : {}),
    ...(p.n > 1 && !model?.capabilities.reasoning ? { n: p.n } : {}),
    ...(stop.length ? { stop } : {}),
    ...(p.jsonMode && model?.capabilities.jsonMode !== false ? { response_format: { type: "json_object" } } : {}),
    ...(state.tools.length ? { tools: state.tools } : {}),
  };
  if (stream) {
    req.stream = true;
    req.stream_options = { include_usage: true };
  }
  return req;
}

/** Sessions with files cannot be re-run after import: the files belong to whoever uploaded them. */
export function hasFiles(state: PlaygroundSessionState): boolean {
  return state.messages.some((m) => (m.files?.length ?? 0) > 0);
}

/** A short title from the first user message. */
export function titleOf(state: PlaygroundSessionState, fallback: string): string {
  const first = state.messages.find((m) => m.role === "user" && m.content.trim());
  const text = (first?.content ?? "").replace(/\s+/g, " ").trim();
  if (!text) return fallback;
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
