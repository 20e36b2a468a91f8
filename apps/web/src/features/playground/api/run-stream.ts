import type { ChatCompletionChunk, ChatCompletionRequest, ChatUsage, GatewayErrorBody } from "@moonport/contracts";
import { ApiError, apiStream } from "../../../lib/api.ts";

export interface StreamHandlers {
  /** Text and reasoning produced for choice `index` so far (cumulative). */
  onChoice(index: number, content: string, reasoning: string): void;
  onUsage(usage: ChatUsage): void;
  /** Tool calls of choice `index` so far (arguments cumulative), as they stream in. */
  onToolCalls?(index: number, calls: StreamedToolCall[]): void;
}

export interface StreamedToolCall {
  id: string;
  type: "function" | "builtin_function";
  name: string;
  arguments: string;
}

export interface StreamResult {
  requestId: string | null;
  /** True when the user stopped it (the server bills what was produced up to then). */
  stopped: boolean;
  /** A failure after the stream began (a §3 error event): its message. */
  streamError: string | null;
  /** Why choice 0 ended (`stop`, `length`, `tool_calls`), from its last chunk. */
  finishReason?: string;
  /** Choice 0's tool calls, complete (the model wants them run before it answers). */
  toolCalls?: StreamedToolCall[];
}

/**
 * Runs one request through POST /api/orgs/:orgId/projects/:projectId/playground/chat and reads its SSE stream
 * (docs/api-compat.md §2.8). Refusals before the stream (limits, budget, balance, bad input) are thrown as
 * ApiError with the server's message (and its field messages) in the user's language; an abort stops reading
 * and closes the connection, which stops the model.
 */
export async function runChatStream(
  url: string,
  body: ChatCompletionRequest,
  handlers: StreamHandlers,
  signal: AbortSignal,
): Promise<StreamResult> {
  let stream: Awaited<ReturnType<typeof apiStream>>;
  try {
    stream = await apiStream(url, body, signal);
  } catch (e) {
    if (signal.aborted) return { requestId: null, stopped: true, streamError: null };
    if (e instanceof ApiError && e.details.length)
      e.message = [e.message, ...e.details.map((d) => d.message)].join(" ");
    throw e;
  }
  const { requestId } = stream;
  const content: string[] = [];
  const reasoning: string[] = [];
  const calls: StreamedToolCall[][] = [];
  let streamError: string | null = null;
  let finishReason: string | undefined;
  try {
    for await (const data of stream.events) {
      if (data === "[DONE]") continue;
      const parsed = JSON.parse(data) as ChatCompletionChunk | GatewayErrorBody;
      if ("error" in parsed) {
        streamError = parsed.error.message;
        continue;
      }
      for (const choice of parsed.choices) {
        const d = choice.delta as { content?: string | null; reasoning_content?: string | null };
        if (d.content) content[choice.index] = (content[choice.index] ?? "") + d.content;
        if (d.reasoning_content) reasoning[choice.index] = (reasoning[choice.index] ?? "") + d.reasoning_content;
        if (choice.delta.tool_calls?.length) {
          const list = calls[choice.index] ?? [];
          calls[choice.index] = list;
          for (const d of choice.delta.tool_calls) {
            const c = list[d.index] ?? { id: "", type: "function", name: "", arguments: "" };
            list[d.index] = c;
            if (d.id) c.id = d.id;
            if (d.type) c.type = d.type;
            if (d.function.name) c.name = d.function.name;
            c.arguments += d.function.arguments ?? "";
          }
          handlers.onToolCalls?.(
            choice.index,
            list.map((c) => ({ ...c })),
          );
        }
        handlers.onChoice(choice.index, content[choice.index] ?? "", reasoning[choice.index] ?? "");
        if (choice.index === 0 && choice.finish_reason) finishReason = choice.finish_reason;
        const usage = (choice as { usage?: ChatUsage | null }).usage;
        if (usage) handlers.onUsage(usage);
      }
      if (parsed.usage) handlers.onUsage(parsed.usage);
    }
  } catch (e) {
    if (signal.aborted) return { requestId, stopped: true, streamError };
    throw e;
  }
  return {
    requestId,
    stopped: false,
    streamError,
    ...(finishReason ? { finishReason } : {}),
    ...(calls[0]?.length ? { toolCalls: calls[0] } : {}),
  };
}
