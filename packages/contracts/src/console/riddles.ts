import { z } from "zod";
import type { Locale } from "../locale.ts";
import { Nanos } from "./common.ts";

/**
 * Riddle challenges (docs/product-spec.md §1, §2 riddle mode, §4 riddle states, §8, §9). A riddle is a
 * prompt-engineering puzzle: the player writes one prompt, the riddle's fixed model answers, and the server judges
 * the answer against the riddle's rules. The prompt rules are checked here for both sides (the web editor's live
 * checks and the server's refusal); the answer is judged only on the server.
 */

export const RIDDLE_DIFFICULTIES = ["beginner", "easy", "medium", "hard", "expert"] as const;
export type RiddleDifficulty = (typeof RIDDLE_DIFFICULTIES)[number];

/**
 * §9 free submission quota: 20 submissions per user per day (the edition's zone). Beyond it a submission is billed
 * as ordinary model usage to the chosen project, like any playground run (its balance, budgets and limits apply).
 * 20 lets a player work through a whole track in a day with room for failures, while a runaway script costs money.
 */
export const FREE_RIDDLE_SUBMISSIONS_PER_DAY = 20;
/** The longest prompt any riddle accepts, whatever its own rules say. */
export const MAX_RIDDLE_PROMPT_CHARS = 2000;

/** Rules on the prompt the player writes: checked live in the editor and again by the server before any run. */
export const RiddlePromptRule = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("maxPromptChars"), max: z.number().int().min(1).max(MAX_RIDDLE_PROMPT_CHARS) }),
  z.object({ kind: z.literal("bannedWords"), words: z.array(z.string().min(1).max(40)).min(1).max(30) }),
]);
export type RiddlePromptRule = z.infer<typeof RiddlePromptRule>;

/** The subset of JSON Schema a riddle's `json` rule understands. */
export interface RiddleJsonSchema {
  type?: "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";
  properties?: Record<string, RiddleJsonSchema>;
  required?: string[];
  enum?: (string | number | boolean)[];
  items?: RiddleJsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}
export const RiddleJsonSchema: z.ZodType<RiddleJsonSchema> = z.lazy(() =>
  z
    .object({
      type: z.enum(["object", "array", "string", "number", "integer", "boolean", "null"]).optional(),
      properties: z.record(z.string(), RiddleJsonSchema).optional(),
      required: z.array(z.string()).optional(),
      enum: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
      items: RiddleJsonSchema.optional(),
      minItems: z.number().int().min(0).optional(),
      maxItems: z.number().int().min(0).optional(),
      minLength: z.number().int().min(0).optional(),
      maxLength: z.number().int().min(0).optional(),
      minimum: z.number().optional(),
      maximum: z.number().optional(),
    })
    .strict(),
);

/** Rules on the model's answer, judged by the server. `anyOf` lists accept an answer in either language. */
export const RiddleAnswerRule = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("equals"), anyOf: z.array(z.string().min(1)).min(1), ignoreCase: z.boolean().optional() }),
  z.object({
    kind: z.literal("contains"),
    anyOf: z.array(z.string().min(1)).min(1),
    ignoreCase: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal("matches"),
    pattern: z
      .string()
      .min(1)
      .max(200)
      .refine((p) => {
        try {
          new RegExp(p, "u");
          return true;
        } catch {
          return false;
        }
      }, "not a valid regular expression"),
    /** What the pattern means, for players (the pattern itself is shown too). */
    label: z.object({ "en-US": z.string().min(1), "zh-CN": z.string().min(1) }),
  }),
  z.object({ kind: z.literal("json"), schema: RiddleJsonSchema }),
  z.object({ kind: z.literal("maxAnswerChars"), max: z.number().int().min(1) }),
]);
export type RiddleAnswerRule = z.infer<typeof RiddleAnswerRule>;

export const RiddleRules = z.object({
  prompt: z.array(RiddlePromptRule).max(5),
  answer: z.array(RiddleAnswerRule).min(1).max(5),
});
export type RiddleRules = z.infer<typeof RiddleRules>;

/** A prompt rule the prompt breaks, with its message in the caller's language. */
export interface PromptProblem {
  kind: RiddlePromptRule["kind"];
  message: string;
}

const norm = (s: string) => s.toLowerCase();
const LATIN_WORD = /^[\p{L}\p{N}]+$/u;

/** Whether `prompt` uses `word`: whole words for Latin words ("hi" is not in "this"), substrings otherwise. */
export function usesWord(prompt: string, word: string): boolean {
  const p = norm(prompt);
  const w = norm(word);
  if (!/[a-z0-9]/.test(w) || !LATIN_WORD.test(w)) return p.includes(w);
  for (let at = p.indexOf(w); at >= 0; at = p.indexOf(w, at + 1)) {
    const before = p[at - 1];
    const after = p[at + w.length];
    const edge = (c: string | undefined) => c === undefined || !/[\p{L}\p{N}]/u.test(c);
    if (edge(before) && edge(after)) return true;
  }
  return false;
}

/** Characters as a person counts them (code points, so an emoji or a Chinese character is one). */
export function promptLength(prompt: string): number {
  return [...prompt].length;
}

const PROMPT_TEXT = {
  maxPromptChars: {
    rule: { "en-US": "The prompt has at most {max} characters.", "zh-CN": "提示词不超过 {max} 个字符。" },
    broken: {
      "en-US": "The prompt has {length} characters; at most {max} are allowed.",
      "zh-CN": "提示词有 {length} 个字符，最多允许 {max} 个。",
    },
  },
  bannedWords: {
    rule: { "en-US": "The prompt must not use: {words}.", "zh-CN": "提示词不能使用：{words}。" },
    broken: { "en-US": "The prompt uses a banned word: {words}.", "zh-CN": "提示词使用了禁用词：{words}。" },
  },
} as const;

const ANSWER_TEXT = {
  equals: { "en-US": "The answer is exactly {values}.", "zh-CN": "回答恰好是 {values}。" },
  contains: { "en-US": "The answer contains {values}.", "zh-CN": "回答包含 {values}。" },
  matches: { "en-US": "The answer has {label} (pattern {pattern}).", "zh-CN": "回答包含{label}（模式 {pattern}）。" },
  json: {
    "en-US": "The answer is a JSON object of this shape: {shape}.",
    "zh-CN": "回答是符合此结构的 JSON 对象：{shape}。",
  },
  maxAnswerChars: { "en-US": "The answer has at most {max} characters.", "zh-CN": "回答不超过 {max} 个字符。" },
} as const;

const fill = (t: string, v: Record<string, string | number>) =>
  t.replace(/\{(\w+)\}/g, (m, k: string) => (k in v ? String(v[k]) : m));
const quoteList = (values: readonly string[], locale: Locale) =>
  values.map((v) => (locale === "zh-CN" ? `“${v}”` : `“${v}”`)).join(locale === "zh-CN" ? " 或 " : " or ");

/** A one-line picture of a JSON schema for players: `{ name: string, age: integer }`. */
export function schemaShape(s: RiddleJsonSchema): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.type === "array") return `[${s.items ? schemaShape(s.items) : "…"}]`;
  if (s.type === "object" || s.properties) {
    const req = new Set(s.required ?? []);
    const parts = Object.entries(s.properties ?? {}).map(([k, v]) => `${k}${req.has(k) ? "" : "?"}: ${schemaShape(v)}`);
    return parts.length ? `{ ${parts.join(", ")} }` : "{ … }";
  }
  return s.type ?? "any";
}

/** What a rule asks, in the player's language (the card and the verdict use the same words). */
export function riddleRuleText(rule: RiddlePromptRule | RiddleAnswerRule, locale: Locale): string {
  switch (rule.kind) {
    case "maxPromptChars":
      return fill(PROMPT_TEXT.maxPromptChars.rule[locale], { max: rule.max });
    case "bannedWords":
      return fill(PROMPT_TEXT.bannedWords.rule[locale], { words: rule.words.join(locale === "zh-CN" ? "、" : ", ") });
    case "equals":
    case "contains":
      return fill(ANSWER_TEXT[rule.kind][locale], { values: quoteList(rule.anyOf, locale) });
    case "matches":
      return fill(ANSWER_TEXT.matches[locale], { label: rule.label[locale], pattern: `/${rule.pattern}/` });
    case "json":
      return fill(ANSWER_TEXT.json[locale], { shape: schemaShape(rule.schema) });
    case "maxAnswerChars":
      return fill(ANSWER_TEXT.maxAnswerChars[locale], { max: rule.max });
  }
}

/** The prompt rules `prompt` breaks (empty: it may be submitted). Used live by the editor and by the server. */
export function checkRiddlePrompt(rules: readonly RiddlePromptRule[], prompt: string, locale: Locale): PromptProblem[] {
  const out: PromptProblem[] = [];
  for (const rule of rules) {
    if (rule.kind === "maxPromptChars") {
      const length = promptLength(prompt);
      if (length > rule.max) {
        out.push({
          kind: rule.kind,
          message: fill(PROMPT_TEXT.maxPromptChars.broken[locale], { length, max: rule.max }),
        });
      }
    } else {
      const used = rule.words.filter((w) => usesWord(prompt, w));
      if (used.length) {
        out.push({
          kind: rule.kind,
          message: fill(PROMPT_TEXT.bannedWords.broken[locale], { words: used.join(locale === "zh-CN" ? "、" : ", ") }),
        });
      }
    }
  }
  return out;
}

// ─── API shapes ──────────────────────────────────────────────────────────────────────────────────────────────────

export const RiddleState = z.enum(["locked", "available", "completed"]);
export type RiddleState = z.infer<typeof RiddleState>;

/** One judged rule of an attempt: what it asks, whether the answer met it, and why not. */
export const RiddleCheck = z.object({
  kind: z.string(),
  passed: z.boolean(),
  rule: z.string(),
  /** Why it failed (empty when it passed), in the caller's language. */
  reason: z.string(),
});
export type RiddleCheck = z.infer<typeof RiddleCheck>;

export const RiddleAttempt = z.object({
  id: z.string(),
  riddleId: z.string(),
  prompt: z.string(),
  answer: z.string(),
  passed: z.boolean(),
  checks: z.array(RiddleCheck),
  /** False: counted against the free daily quota; true: billed to the project as model usage. */
  billed: z.boolean(),
  requestId: z.string(),
  createdAt: z.string(),
});
export type RiddleAttempt = z.infer<typeof RiddleAttempt>;

export const RiddleView = z.object({
  id: z.string(),
  difficulty: z.enum(RIDDLE_DIFFICULTIES),
  /** 1-based place in its track. */
  position: z.number().int(),
  title: z.string(),
  story: z.string(),
  goal: z.string(),
  model: z.string(),
  /** The riddle's own system message the model sees, shown to the player (empty when none). */
  system: z.string(),
  promptRules: z.array(RiddlePromptRule),
  /** Prompt and answer rules in the caller's language. */
  ruleTexts: z.object({ prompt: z.array(z.string()), answer: z.array(z.string()) }),
  reward: z.object({ amount: Nanos, currency: z.string(), voucherDays: z.number().int() }),
  state: RiddleState,
  /** Completed riddles: whether the reward was claimed (once per player), and when it was solved. */
  claimed: z.boolean(),
  solvedAt: z.string().nullable(),
  attempts: z.number().int(),
});
export type RiddleView = z.infer<typeof RiddleView>;

export const RiddleBoard = z.object({
  riddles: z.array(RiddleView),
  progress: z.array(
    z.object({ difficulty: z.enum(RIDDLE_DIFFICULTIES), completed: z.number().int(), total: z.number().int() }),
  ),
  /** Consecutive days with at least one solve, in the edition's zone; alive while today or yesterday had one. */
  streak: z.object({ current: z.number().int(), best: z.number().int(), solvedToday: z.boolean() }),
  quota: z.object({ free: z.number().int(), used: z.number().int(), remaining: z.number().int() }),
});
export type RiddleBoard = z.infer<typeof RiddleBoard>;

export const RiddleParams = z.object({ orgId: z.string(), riddleId: z.string().max(64) });
export const RiddleProjectParams = z.object({ orgId: z.string(), projectId: z.string(), riddleId: z.string().max(64) });

export const SubmitRiddleRequest = z.object({ prompt: z.string().trim().min(1).max(MAX_RIDDLE_PROMPT_CHARS) });
export type SubmitRiddleRequest = z.infer<typeof SubmitRiddleRequest>;

export const RiddleAttemptList = z.object({ items: z.array(RiddleAttempt) });
export type RiddleAttemptList = z.infer<typeof RiddleAttemptList>;

export const RiddleClaim = z.object({
  riddleId: z.string(),
  voucherId: z.string(),
  amount: Nanos,
  currency: z.string(),
  expiresAt: z.string(),
});
export type RiddleClaim = z.infer<typeof RiddleClaim>;

/**
 * Events of a submission's stream (text/event-stream, one JSON object per `data:` line): the answer as it arrives,
 * then the verdict, or an error that ended the run (nothing counted).
 */
export type RiddleStreamEvent =
  | { type: "delta"; content: string }
  | { type: "verdict"; attempt: RiddleAttempt; solvedNow: boolean }
  | { type: "error"; message: string };
