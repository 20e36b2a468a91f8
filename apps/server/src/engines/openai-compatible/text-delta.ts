/**
 * Most frames of a streamed answer are one choice's next piece of text, and in the layout every OpenAI-compatible
 * server we forward to writes (OpenAI, Moonshot, vLLM, SGLang, llama.cpp):
 *
 *   {"id":…,"object":"chat.completion.chunk",…,"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}
 *
 * Reading such a frame with JSON.parse builds five objects to take one string out of them, about a microsecond per
 * frame, ten or more per answer. `textDelta` recognises exactly that shape and returns the choice and
 * its text; anything else (other choices or fields in the choice, tool calls, reasoning, a finish reason, usage,
 * an error, other spacing) returns undefined and the caller parses the frame in full, so a frame the pattern does
 * not know costs only the failed match.
 *
 * Why the match cannot be fooled by text inside a string value: the pattern requires `"choices":[` with bare
 * quotes, and inside a JSON string every quote is escaped (`\"`), so only the structure itself can match.
 */

const CHOICES = '"choices":[{"index":';
/** Sticky: tried only where `"choices":[{"index":` starts (indexOf finds it faster than a regex search would). */
const TEXT_DELTA =
  /"choices":\[\{"index":(\d{1,6}),"delta":\{(?:"role":"assistant",)?"content":"((?:[^"\\]|\\.)*)"\}(?:,"logprobs":null)?,"finish_reason":null\}\](?:,"usage":null)?\}$/y;

interface TextDelta {
  choice: number;
  content: string;
}

/**
 * `pattern` matched from the text's `"choices":[{"index":` (which the pattern must start with), with nothing before
 * it that names usage or an error (the full reading handles those): the match, with its group 2, a JSON string's
 * body, decoded as `content`; undefined otherwise.
 */
function matchChoices(text: string, pattern: RegExp): { m: RegExpExecArray; content: string } | undefined {
  if (text.charCodeAt(0) !== 123) return undefined;
  const at = text.indexOf(CHOICES);
  if (at === -1) return undefined;
  pattern.lastIndex = at;
  const m = pattern.exec(text);
  if (!m || text.lastIndexOf('"usage"', at) !== -1 || text.lastIndexOf('"error"', at) !== -1) return undefined;
  const raw = m[2]!;
  if (!raw.includes("\\")) return { m, content: raw };
  try {
    return { m, content: JSON.parse(`"${raw}"`) as string };
  } catch {
    return undefined;
  }
}

export function textDelta(frame: string): TextDelta | undefined {
  // The pattern is anchored at the frame's closing brace, with only `"usage":null` allowed after the choices.
  const found = matchChoices(frame, TEXT_DELTA);
  return found && { choice: Number(found.m[1]), content: found.content };
}

/**
 * The same idea for a whole JSON answer (not streamed): one choice of plain text, with its usage, in the layout
 * of docs/api-compat.md §2.7 as Moonshot and servers like it write it:
 *
 *   {"id":…,"object":"chat.completion",…,"choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},
 *    "finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":8,"total_tokens":20}}
 *
 * `simpleAnswer` returns only what the engine reads of such a body (the fields fromCompletion takes), without the
 * id, model and other strings JSON.parse would build: ~0.4 against ~1.1 µs for a short answer
 * (docs/decisions/0006-simple-answer-fast-json-path.md). Other layouts (tool calls, reasoning, several choices, other
 * fields, spacing, an error) return undefined and are parsed in full; so are bodies over SIMPLE_ANSWER_MAX, where the
 * match would save little and scan a long text. The pattern is safe against look-alike text for the reason given above:
 * it needs bare quotes.
 */
const SIMPLE_ANSWER_MAX = 8192;
/** A JSON integer as JSON.parse accepts it (no leading zeros), up to `n` digits. */
const int = (n: number) => `(0|[1-9]\\d{0,${n - 1}})`;
// The text: no quote, backslash or control character unescaped (JSON.parse refuses those, so must this).
const SIMPLE_ANSWER = new RegExp(
  `"choices":\\[\\{"index":${int(6)},"message":\\{"role":"assistant","content":"([^"\\\\\\x00-\\x1f]*(?:\\\\.[^"\\\\\\x00-\\x1f]*)*)"\\}` +
    `(?:,"logprobs":null)?,"finish_reason":"([a-z_]{1,20})"\\}\\],"usage":\\{"prompt_tokens":${int(9)},"completion_tokens":${int(9)},` +
    `"total_tokens":${int(10)}(?:,"cached_tokens":${int(9)})?(?:,"prompt_tokens_details":\\{"cached_tokens":${int(9)}\\})?\\}\\}\\s*$`,
  "y",
);

interface SimpleAnswer {
  choices: [{ index: number; message: { content: string }; finish_reason: string }];
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    cached_tokens?: number;
    prompt_tokens_details?: { cached_tokens: number };
  };
}

export function simpleAnswer(body: string): SimpleAnswer | undefined {
  if (body.length > SIMPLE_ANSWER_MAX) return undefined;
  const found = matchChoices(body, SIMPLE_ANSWER);
  if (!found) return undefined;
  const { m, content } = found;
  const usage: SimpleAnswer["usage"] = { prompt_tokens: Number(m[4]), completion_tokens: Number(m[5]) };
  if (m[7] !== undefined) usage.cached_tokens = Number(m[7]);
  if (m[8] !== undefined) usage.prompt_tokens_details = { cached_tokens: Number(m[8]) };
  return { choices: [{ index: Number(m[1]), message: { content }, finish_reason: m[3]! }], usage };
}
