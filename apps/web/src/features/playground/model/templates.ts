import type { DEFAULT_PLAYGROUND_PARAMS, PlaygroundMode, PlaygroundTool } from "@moonport/contracts";

/**
 * Showcase scenarios. Words (title, description, system prompt, messages) live in the `playground` namespace
 * under `templates.<id>`, so each opens in the reader's language; this file holds what is not words.
 */
export interface PlaygroundTemplate {
  id: string;
  mode: PlaygroundMode;
  models: string[];
  /** Roles of the pre-filled conversation; texts are `templates.<id>.messages.<i>`. */
  turns: ("user" | "assistant")[];
  params?: Partial<typeof DEFAULT_PLAYGROUND_PARAMS>;
  tools?: PlaygroundTool[];
}

const WEATHER_TOOL: PlaygroundTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather of a city",
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "City name" } },
      required: ["city"],
    },
  },
};

export const TEMPLATES: PlaygroundTemplate[] = [
  { id: "translation", mode: "chat", models: ["kimi-k2-0905-preview"], turns: ["user"] },
  { id: "codeReview", mode: "chat", models: ["kimi-k2-0905-preview"], turns: ["user"] },
  {
    id: "jsonExtraction",
    mode: "chat",
    models: ["moonshot-v1-8k"],
    turns: ["user"],
    params: { jsonMode: true, temperature: 0 },
  },
  { id: "longDocument", mode: "chat", models: ["moonshot-v1-128k"], turns: ["user"] },
  { id: "toolUse", mode: "chat", models: ["kimi-k2-0905-preview"], turns: ["user"], tools: [WEATHER_TOOL] },
  { id: "rolePlay", mode: "edit", models: ["kimi-k2-0905-preview"], turns: ["user", "assistant", "user"] },
  {
    id: "compareModels",
    mode: "compare",
    models: ["moonshot-v1-8k", "kimi-k2-0905-preview", "kimi-k2-turbo-preview"],
    turns: ["user"],
  },
  {
    id: "partialMode",
    mode: "edit",
    models: ["moonshot-v1-8k"],
    turns: ["user", "assistant"],
    params: { partial: true },
  },
  { id: "thinking", mode: "chat", models: ["kimi-thinking-preview"], turns: ["user"], params: { maxTokens: 4096 } },
  { id: "summary", mode: "chat", models: ["moonshot-v1-32k"], turns: ["user"], params: { stop: "###" } },
  { id: "sqlWriter", mode: "chat", models: ["kimi-k2-0905-preview"], turns: ["user"], params: { temperature: 0 } },
  {
    id: "creativeCompare",
    mode: "compare",
    models: ["kimi-k2-0905-preview", "moonshot-v1-32k"],
    turns: ["user"],
    params: { temperature: 1 },
  },
  { id: "emailWriter", mode: "chat", models: ["moonshot-v1-8k"], turns: ["user"] },
];
