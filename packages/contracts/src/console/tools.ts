import { z } from "zod";
import { vmsg } from "../validation.ts";

/**
 * Custom function tools of the playground (docs/product-spec.md §3 and §5). Saved per user and project. The
 * parameters schema and the example input travel as JSON text, exactly as the user typed them, because their
 * limits are in characters; the server parses them and checks the schema and the example with a real JSON Schema
 * validator (that part of the rule needs one, so it lives on the server and comes back as field errors).
 */
export const FUNCTION_TOOL_LIMITS = {
  name: 64,
  description: 500,
  parameters: 2000,
  exampleInput: 1000,
  code: 3000,
  /** Saved tools per user and project. */
  perProject: 50,
} as const;

/** §5: starts with a letter or underscore; letters, digits, underscores and hyphens only. */
export const FUNCTION_TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const required = (max: number) =>
  z
    .string({ error: vmsg("required") })
    .min(1, vmsg("required"))
    .max(max, vmsg("too_long", { max }));

export const FunctionToolInput = z.object({
  name: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(FUNCTION_TOOL_LIMITS.name, vmsg("too_long", { max: FUNCTION_TOOL_LIMITS.name }))
    .regex(FUNCTION_TOOL_NAME, vmsg("tool_name_charset")),
  description: z
    .string()
    .max(FUNCTION_TOOL_LIMITS.description, vmsg("too_long", { max: FUNCTION_TOOL_LIMITS.description }))
    .default(""),
  parameters: required(FUNCTION_TOOL_LIMITS.parameters),
  exampleInput: required(FUNCTION_TOOL_LIMITS.exampleInput),
  code: required(FUNCTION_TOOL_LIMITS.code),
});
export type FunctionToolInput = z.input<typeof FunctionToolInput>;

export const UpdateFunctionToolRequest = FunctionToolInput.partial().extend({
  // Without its default: a description left out of an edit stays as it is.
  description: FunctionToolInput.shape.description.removeDefault().optional(),
});
export type UpdateFunctionToolRequest = z.input<typeof UpdateFunctionToolRequest>;

export const FunctionTool = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  parameters: z.string(),
  exampleInput: z.string(),
  code: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FunctionTool = z.infer<typeof FunctionTool>;

export const FunctionToolList = z.object({ items: z.array(FunctionTool) });
export type FunctionToolList = z.infer<typeof FunctionToolList>;

export const FunctionToolParams = z.object({
  orgId: z.string().min(1).max(64),
  projectId: z.string().min(1).max(64),
  toolId: z.string().min(1).max(64),
});

/**
 * A test run of a tool as it stands in the editor (saved or not): every rule of a save applies, then the code
 * runs in the sandbox with `input` (JSON text; the example input when absent).
 */
export const TestRunFunctionToolRequest = FunctionToolInput.extend({
  input: z
    .string()
    .max(FUNCTION_TOOL_LIMITS.exampleInput, vmsg("too_long", { max: FUNCTION_TOOL_LIMITS.exampleInput }))
    .optional(),
});
export type TestRunFunctionToolRequest = z.input<typeof TestRunFunctionToolRequest>;

/** The states a tool call goes through (docs/product-spec.md §4). */
export const TOOL_CALL_STATES = ["pending", "executing", "success", "failed"] as const;
export type ToolCallState = (typeof TOOL_CALL_STATES)[number];

/** The result of a run: the JSON text the code returned, or why it failed (a timeout, a limit, an exception). */
export const ToolRunResult = z.object({
  state: z.enum(["success", "failed"]),
  output: z.string(),
  durationMs: z.number().int(),
});
export type ToolRunResult = z.infer<typeof ToolRunResult>;

/**
 * One step of the playground's tool loop: the browser got a tool call from the model and asks the server to run
 * it — an official tool (formula URI), one of the caller's function tools (id) or an MCP server's tool (server
 * id). The answer is the tool message's content and the call's final state.
 */
export const PlaygroundToolCallRequest = z.object({
  kind: z.enum(["official", "function", "mcp"], { error: vmsg("invalid_type") }),
  target: z
    .string()
    .min(1, vmsg("required"))
    .max(128, vmsg("too_long", { max: 128 })),
  name: z
    .string()
    .min(1, vmsg("required"))
    .max(128, vmsg("too_long", { max: 128 })),
  arguments: z.string().max(100_000, vmsg("too_long", { max: 100_000 })),
});
export type PlaygroundToolCallRequest = z.infer<typeof PlaygroundToolCallRequest>;

/** One official tool of the playground's picker: its formula URI, whether calls are billed, its functions. */
export const OfficialToolEntry = z.object({
  uri: z.string(),
  billed: z.boolean(),
  tools: z.array(
    z.object({
      type: z.literal("function"),
      function: z.object({
        name: z.string(),
        description: z.string(),
        parameters: z.record(z.string(), z.unknown()),
      }),
    }),
  ),
});
export type OfficialToolEntry = z.infer<typeof OfficialToolEntry>;

export const OfficialToolList = z.object({ items: z.array(OfficialToolEntry) });
export type OfficialToolList = z.infer<typeof OfficialToolList>;
