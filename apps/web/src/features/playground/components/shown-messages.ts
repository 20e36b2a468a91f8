import type { PlaygroundMessage } from "@moonport/contracts";

/** The conversation as read: a tool message is shown as the result inside the call it answers. */
export function shownMessages(messages: PlaygroundMessage[]): PlaygroundMessage[] {
  const answered = new Set(messages.flatMap((m) => m.toolCalls?.map((c) => c.id) ?? []));
  return messages.filter((m) => m.role !== "tool" || !m.toolCallId || !answered.has(m.toolCallId));
}
