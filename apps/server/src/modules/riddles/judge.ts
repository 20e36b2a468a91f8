import {
  type Locale,
  type RiddleAnswerRule,
  type RiddleCheck,
  type RiddleJsonSchema,
  riddleRuleText,
} from "@moonport/contracts";

/**
 * Judging, only ever on the server: every answer rule of the riddle against the model's answer, each with the
 * reason it failed in the player's language. Pure; the answer is whatever the model produced (any text, possibly
 * empty, cut off or not JSON) and never throws.
 */

/** Answers are judged on their first 20,000 characters (max_tokens keeps real answers far below). */
const MAX_JUDGED_CHARS = 20_000;

const REASONS = {
  equals: { "en-US": "The answer was “{answer}”.", "zh-CN": "回答是“{answer}”。" },
  contains: { "en-US": "The answer does not contain {values}.", "zh-CN": "回答中没有 {values}。" },
  matches: { "en-US": "Nothing in the answer matches {pattern}.", "zh-CN": "回答中没有内容匹配 {pattern}。" },
  notJson: { "en-US": "The answer is not valid JSON.", "zh-CN": "回答不是有效的 JSON。" },
  schema: { "en-US": "The JSON does not fit: {problem}.", "zh-CN": "JSON 结构不符：{problem}。" },
  tooLong: { "en-US": "The answer has {length} characters.", "zh-CN": "回答有 {length} 个字符。" },
  empty: { "en-US": "The model gave no answer.", "zh-CN": "模型没有给出回答。" },
} as const;

const SCHEMA_PROBLEMS = {
  type: { "en-US": "{path} should be {type}", "zh-CN": "{path} 应为 {type}" },
  required: { "en-US": "{path} is missing", "zh-CN": "缺少 {path}" },
  enum: { "en-US": "{path} must be one of {values}", "zh-CN": "{path} 必须是 {values} 之一" },
  minItems: { "en-US": "{path} needs at least {n} items", "zh-CN": "{path} 至少需要 {n} 项" },
  maxItems: { "en-US": "{path} allows at most {n} items", "zh-CN": "{path} 最多 {n} 项" },
  minLength: { "en-US": "{path} needs at least {n} characters", "zh-CN": "{path} 至少需要 {n} 个字符" },
  maxLength: { "en-US": "{path} allows at most {n} characters", "zh-CN": "{path} 最多 {n} 个字符" },
  minimum: { "en-US": "{path} must be at least {n}", "zh-CN": "{path} 不能小于 {n}" },
  maximum: { "en-US": "{path} must be at most {n}", "zh-CN": "{path} 不能大于 {n}" },
} as const;

const fill = (t: string, v: Record<string, string | number>) =>
  t.replace(/\{(\w+)\}/g, (m, k: string) => (k in v ? String(v[k]) : m));
const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…` : s);
const quote = (values: readonly string[], locale: Locale) =>
  values.map((v) => `“${v}”`).join(locale === "zh-CN" ? " 或 " : " or ");

/** Equality ignores surrounding space and end punctuation ("Hello!" equals "hello" when case is ignored). */
function normalizeEqual(s: string, ignoreCase: boolean): string {
  const t = s.trim().replace(/^["'“”「」]+|[\s.!?。！？,，"'“”「」]+$/gu, "");
  return ignoreCase ? t.toLowerCase() : t;
}

/** A JSON object in the answer: the whole answer, or the first fenced ```json block (real models like fences). */
function parseJsonAnswer(answer: string): { ok: true; value: unknown } | { ok: false } {
  const candidates = [answer.trim()];
  const fence = /```(?:json)?\s*([\s\S]*?)```/i.exec(answer);
  if (fence) candidates.push(fence[1]!.trim());
  for (const c of candidates) {
    try {
      return { ok: true, value: JSON.parse(c) as unknown };
    } catch {
      // next candidate
    }
  }
  return { ok: false };
}

/** The first way `value` breaks `schema`, or undefined when it fits. */
function schemaProblem(value: unknown, schema: RiddleJsonSchema, locale: Locale, path = "$"): string | undefined {
  const p = (key: keyof typeof SCHEMA_PROBLEMS, extra: Record<string, string | number> = {}) =>
    fill(SCHEMA_PROBLEMS[key][locale], { path, ...extra });
  if (schema.enum && !schema.enum.some((e) => e === value)) {
    return p("enum", { values: schema.enum.map((e) => JSON.stringify(e)).join(", ") });
  }
  const type = schema.type ?? (schema.properties ? "object" : undefined);
  if (type) {
    const ok =
      type === "object"
        ? typeof value === "object" && value !== null && !Array.isArray(value)
        : type === "array"
          ? Array.isArray(value)
          : type === "integer"
            ? typeof value === "number" && Number.isInteger(value)
            : type === "null"
              ? value === null
              : typeof value === type;
    if (!ok) return p("type", { type });
  }
  if (typeof value === "string") {
    const len = [...value].length;
    if (schema.minLength !== undefined && len < schema.minLength) return p("minLength", { n: schema.minLength });
    if (schema.maxLength !== undefined && len > schema.maxLength) return p("maxLength", { n: schema.maxLength });
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return p("minimum", { n: schema.minimum });
    if (schema.maximum !== undefined && value > schema.maximum) return p("maximum", { n: schema.maximum });
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return p("minItems", { n: schema.minItems });
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return p("maxItems", { n: schema.maxItems });
    if (schema.items) {
      for (const [i, item] of value.entries()) {
        const problem = schemaProblem(item, schema.items, locale, `${path}[${i}]`);
        if (problem) return problem;
      }
    }
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (!Object.hasOwn(obj, key)) return fill(SCHEMA_PROBLEMS.required[locale], { path: `${path}.${key}` });
    }
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (!Object.hasOwn(obj, key)) continue;
      const problem = schemaProblem(obj[key], sub, locale, `${path}.${key}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function judgeOne(rule: RiddleAnswerRule, answer: string, locale: Locale): string | undefined {
  switch (rule.kind) {
    case "equals": {
      const got = normalizeEqual(answer, rule.ignoreCase ?? false);
      if (rule.anyOf.some((v) => normalizeEqual(v, rule.ignoreCase ?? false) === got)) return undefined;
      return answer.trim() === ""
        ? REASONS.empty[locale]
        : fill(REASONS.equals[locale], { answer: clip(answer.trim()) });
    }
    case "contains": {
      const hay = rule.ignoreCase ? answer.toLowerCase() : answer;
      if (rule.anyOf.some((v) => hay.includes(rule.ignoreCase ? v.toLowerCase() : v))) return undefined;
      return fill(REASONS.contains[locale], { values: quote(rule.anyOf, locale) });
    }
    case "matches": {
      let re: RegExp;
      try {
        re = new RegExp(rule.pattern, "u");
      } catch {
        // Operators' patterns are checked when saved; a pattern that no longer compiles fails, never throws.
        return fill(REASONS.matches[locale], { pattern: `/${rule.pattern}/` });
      }
      return re.test(answer) ? undefined : fill(REASONS.matches[locale], { pattern: `/${rule.pattern}/` });
    }
    case "json": {
      const parsed = parseJsonAnswer(answer);
      if (!parsed.ok) return REASONS.notJson[locale];
      const problem = schemaProblem(parsed.value, rule.schema, locale);
      return problem ? fill(REASONS.schema[locale], { problem }) : undefined;
    }
    case "maxAnswerChars": {
      const length = [...answer.trim()].length;
      return length <= rule.max ? undefined : fill(REASONS.tooLong[locale], { length });
    }
  }
}

/** Every rule judged; the attempt passes when all pass. */
export function judgeAnswer(
  rules: readonly RiddleAnswerRule[],
  rawAnswer: string,
  locale: Locale,
): { passed: boolean; checks: RiddleCheck[] } {
  const answer = rawAnswer.length > MAX_JUDGED_CHARS ? rawAnswer.slice(0, MAX_JUDGED_CHARS) : rawAnswer;
  const checks = rules.map((rule): RiddleCheck => {
    const reason = judgeOne(rule, answer, locale);
    return { kind: rule.kind, passed: reason === undefined, rule: riddleRuleText(rule, locale), reason: reason ?? "" };
  });
  return { passed: checks.length > 0 && checks.every((c) => c.passed), checks };
}
