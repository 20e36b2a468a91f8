import { z } from "zod";
import { findModel } from "../catalog.ts";
import { vmsg } from "../validation.ts";
import { Nanos, paged } from "./common.ts";
import { TOOL_CALL_STATES } from "./tools.ts";

/**
 * The playground (docs/api-compat.md §11): one request shape for a run, one saved-session shape for history, import and
 * export. The web form and the server check the same rules (§5: stop sequences, uploads).
 */

/** §5: at most 5 stop sequences, each at most 32 bytes (UTF-8). */
export const MAX_STOP_SEQUENCES = 5;
export const MAX_STOP_BYTES = 32;
/** §5: playground uploads up to 100 MB. */
export const MAX_PLAYGROUND_UPLOAD_BYTES = 100 * 1024 * 1024;
/** Compare mode: up to 3 models side by side (docs/api-compat.md §11). */
export const MAX_COMPARE_PANELS = 3;

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** One stop sequence as sent to the model. */
const StopSequence = z
  .string()
  .min(1, vmsg("stop_empty"))
  .refine((s) => utf8Bytes(s) <= MAX_STOP_BYTES, vmsg("stop_too_long", { max: MAX_STOP_BYTES }));

/** The stop sequences of a run request (server side of the rule). */
export const StopSequences = z
  .array(StopSequence)
  .max(MAX_STOP_SEQUENCES, vmsg("stop_too_many", { max: MAX_STOP_SEQUENCES }));

/** "a, b ,c" → ["a","b","c"]: the comma-separated form field. Empty items between commas are dropped. */
export function splitStopSequences(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The form field: comma-separated text that must split into valid stop sequences. */
export const StopSequencesText = z
  .string()
  .max(1024, vmsg("too_long", { max: 1024 }))
  .superRefine((text, ctx) => {
    const parsed = StopSequences.safeParse(splitStopSequences(text));
    if (!parsed.success)
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
  });

/**
 * "n where the model allows it": thinking models answer with one choice, and several choices at temperature 0
 * would all be the same (the chat core refuses that too, in English; the playground says it in the user's words
 * and the form shows it on the field). Returns the message key, or null when n is allowed.
 */
export function nChoicesError(model: string, n: number, temperature: number): string | null {
  if (n <= 1) return null;
  if (findModel(model)?.capabilities.reasoning) return vmsg("n_single_choice");
  if (temperature <= 0.001) return vmsg("n_zero_temperature");
  return null;
}

export const PLAYGROUND_MODES = ["chat", "compare", "edit"] as const;
export const PlaygroundMode = z.enum(PLAYGROUND_MODES, { error: vmsg("invalid_type") });
export type PlaygroundMode = z.infer<typeof PlaygroundMode>;

/** Sampling parameters of one model panel, as the form keeps them (stop as its comma-separated text). */
export const PlaygroundParams = z.object({
  temperature: z
    .number()
    .min(0, vmsg("range", { min: 0, max: 1 }))
    .max(1, vmsg("range", { min: 0, max: 1 })),
  topP: z
    .number()
    .min(0, vmsg("range", { min: 0, max: 1 }))
    .max(1, vmsg("range", { min: 0, max: 1 })),
  maxTokens: z
    .number()
    .int(vmsg("integer"))
    .min(1, vmsg("range", { min: 1, max: 262144 }))
    .max(262144, vmsg("range", { min: 1, max: 262144 })),
  presencePenalty: z
    .number()
    .min(-2, vmsg("range", { min: -2, max: 2 }))
    .max(2, vmsg("range", { min: -2, max: 2 })),
  frequencyPenalty: z
    .number()
    .min(-2, vmsg("range", { min: -2, max: 2 }))
    .max(2, vmsg("range", { min: -2, max: 2 })),
  n: z
    .number()
    .int(vmsg("integer"))
    .min(1, vmsg("range", { min: 1, max: 5 }))
    .max(5, vmsg("range", { min: 1, max: 5 })),
  stop: StopSequencesText,
  jsonMode: z.boolean(),
  partial: z.boolean(),
});
export type PlaygroundParams = z.infer<typeof PlaygroundParams>;

export const DEFAULT_PLAYGROUND_PARAMS: PlaygroundParams = {
  temperature: 0.3,
  topP: 1,
  maxTokens: 1024,
  presencePenalty: 0,
  frequencyPenalty: 0,
  n: 1,
  stop: "",
  jsonMode: false,
  partial: false,
};

/** A file attached to a message: its text was extracted through the files API and sent as a system message. */
export const PlaygroundFile = z.object({
  id: z.string().max(128),
  filename: z.string().max(512),
  bytes: z.number().int().min(0),
});
export type PlaygroundFile = z.infer<typeof PlaygroundFile>;

/**
 * One function tool (OpenAI shape). The tools issue fills this in; the session and the request builder already
 * carry it so exported sessions keep their tools.
 */
export const PlaygroundTool = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string().min(1).max(64),
    description: z.string().max(500).optional(),
    parameters: z
      .looseObject({
        type: z.literal("object"),
        properties: z.record(z.string(), z.unknown()).optional(),
        required: z.array(z.string()).optional(),
      })
      .optional(),
  }),
});
export type PlaygroundTool = z.infer<typeof PlaygroundTool>;

export const PlaygroundRole = z.enum(["system", "user", "assistant", "tool"]);
export type PlaygroundRole = z.infer<typeof PlaygroundRole>;

/**
 * A tool call of an assistant message as the playground's tool loop shows it (docs/api-compat.md §11: call id,
 * arguments, result) with its state (docs/product-spec.md §4) and what ran it.
 */
export const PlaygroundToolCall = z.object({
  id: z.string().max(128),
  name: z.string().max(128),
  arguments: z.string().max(100_000),
  state: z.enum(TOOL_CALL_STATES),
  /** official | function | mcp; absent when no tool of that name is available here. */
  kind: z.enum(["official", "function", "mcp"]).optional(),
  output: z.string().max(200_000).optional(),
  durationMs: z.number().int().min(0).optional(),
});
export type PlaygroundToolCall = z.infer<typeof PlaygroundToolCall>;

/** A message as the playground edits it. `images` are data URLs (vision models). */
export const PlaygroundMessage = z.object({
  id: z.string().max(64),
  role: PlaygroundRole,
  content: z.string().max(2_000_000),
  reasoning: z.string().max(2_000_000).optional(),
  name: z.string().max(64).optional(),
  toolCallId: z.string().max(128).optional(),
  images: z.array(z.string().max(20_000_000)).max(10).optional(),
  files: z.array(PlaygroundFile).max(10).optional(),
  /** Assistant messages that called tools. */
  toolCalls: z.array(PlaygroundToolCall).max(128).optional(),
});
export type PlaygroundMessage = z.infer<typeof PlaygroundMessage>;

/** One model column: the model, its parameters and (compare mode) its own answers. */
export const PlaygroundPanel = z.object({
  id: z.string().max(64),
  model: z.string().min(1).max(128),
  params: PlaygroundParams,
  /** Compare mode: the answers this panel gave, in order (one per user turn). */
  messages: z.array(PlaygroundMessage).max(500).default([]),
});
export type PlaygroundPanel = z.infer<typeof PlaygroundPanel>;

/** Everything a session needs to be shown and re-run; also the `.json` export format. */
export const PlaygroundSessionState = z.object({
  version: z.literal(1),
  mode: PlaygroundMode,
  system: z.string().max(2_000_000).default(""),
  panels: z.array(PlaygroundPanel).min(1).max(MAX_COMPARE_PANELS),
  /** The conversation (chat, edit) or the shared user turns (compare). */
  messages: z.array(PlaygroundMessage).max(500),
  tools: z.array(PlaygroundTool).max(128).default([]),
  /** Set on import when the session carries files: they belong to their uploader, so it cannot be re-run. */
  readOnly: z.boolean().default(false),
  template: z.string().max(64).optional(),
});
export type PlaygroundSessionState = z.infer<typeof PlaygroundSessionState>;
export type PlaygroundSessionStateInput = z.input<typeof PlaygroundSessionState>;

export const PlaygroundSessionTitle = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .max(80, vmsg("too_long", { max: 80 }));

export const PlaygroundSessionSummary = z.object({
  id: z.string(),
  title: z.string(),
  mode: PlaygroundMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlaygroundSessionSummary = z.infer<typeof PlaygroundSessionSummary>;
export const PlaygroundSessionPage = paged(PlaygroundSessionSummary);

export const PlaygroundSession = PlaygroundSessionSummary.extend({ state: PlaygroundSessionState });
export type PlaygroundSession = z.infer<typeof PlaygroundSession>;

export const CreatePlaygroundSessionRequest = z.object({
  title: PlaygroundSessionTitle,
  state: PlaygroundSessionState,
});
export type CreatePlaygroundSessionRequest = z.input<typeof CreatePlaygroundSessionRequest>;

export const UpdatePlaygroundSessionRequest = z
  .object({ title: PlaygroundSessionTitle.optional(), state: PlaygroundSessionState.optional() })
  .refine((v) => v.title !== undefined || v.state !== undefined, vmsg("required"));
export type UpdatePlaygroundSessionRequest = z.input<typeof UpdatePlaygroundSessionRequest>;

export const PlaygroundSessionParams = z.object({
  orgId: z.string().min(1).max(64),
  projectId: z.string().min(1).max(64),
  sessionId: z.string().min(1).max(64),
});

/**
 * The body of a run: an OpenAI chat request. The playground's own rules are checked here in the user's
 * language; everything else is the chat core's (docs/api-compat.md §2), exactly as on /v1.
 */
export const PlaygroundChatRequest = z
  .looseObject({
    model: z
      .string({ error: vmsg("required") })
      .min(1, vmsg("required"))
      .max(128, vmsg("too_long", { max: 128 })),
    messages: z.array(z.unknown(), { error: vmsg("required") }).min(1, vmsg("required")),
    stop: StopSequences.optional(),
    tools: z.array(PlaygroundTool).max(128).optional(),
  })
  .superRefine((body, ctx) => {
    const n = typeof body.n === "number" ? body.n : 1;
    // The model's own default applies when temperature is absent (moonshot-v1's is 0).
    const temperature =
      typeof body.temperature === "number" ? body.temperature : (findModel(body.model)?.defaultTemperature ?? 1);
    const error = nChoicesError(body.model, n, temperature);
    if (error) ctx.addIssue({ code: "custom", path: ["n"], message: error });
  });
export type PlaygroundChatRequest = z.input<typeof PlaygroundChatRequest>;

export const PlaygroundBillParams = z.object({
  orgId: z.string().min(1).max(64),
  projectId: z.string().min(1).max(64),
  requestId: z.string().min(1).max(128),
});

/** What a playground run was billed (the bill rows of its request id), for the footer. */
export const PlaygroundRunBill = z.object({
  requestId: z.string(),
  model: z.string(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cachedTokens: z.number().int(),
  consumption: Nanos,
  currency: z.enum(["CNY", "USD"]),
});
export type PlaygroundRunBill = z.infer<typeof PlaygroundRunBill>;

/** The API key id written on bill rows of playground runs: `playground:<userId>` (no key was used). */
export const PLAYGROUND_KEY_PREFIX = "playground:";
export function isPlaygroundKeyId(id: string): boolean {
  return id.startsWith(PLAYGROUND_KEY_PREFIX);
}
