/**
 * Most frames of a streamed answer are one choice's next piece of text, and in the layout every OpenAI-compatible
 * server we forward to writes (OpenAI, Moonshot, vLLM, SGLang, llama.cpp):
 *
 *   {"id":…,"object":"chat.completion.chunk",…,"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}
 *
 * Reading such a frame with JSON.parse builds five objects to take one string out of them, about a microsecond per
 * frame, ten or more per answer (issue 18). `textDelta` recognises exactly that shape and returns the choice and
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

export interface TextDelta {
  choice: number;
  content: string;
}

export function textDelta(frame: string): TextDelta | undefined {
  if (frame.charCodeAt(0) !== 123) return undefined;
  const at = frame.indexOf(CHOICES);
  if (at === -1) return undefined;
  // The choices end the object (the pattern is anchored at its closing brace, with only `"usage":null` allowed
  // after them), and nothing before them names usage or an error: the full reading handles those frames.
  TEXT_DELTA.lastIndex = at;
  const m = TEXT_DELTA.exec(frame);
  if (!m || frame.lastIndexOf('"usage"', at) !== -1 || frame.lastIndexOf('"error"', at) !== -1) return undefined;
  const raw = m[2]!;
  let content: string;
  if (!raw.includes("\\")) content = raw;
  else {
    try {
      content = JSON.parse(`"${raw}"`) as string;
    } catch {
      return undefined;
    }
  }
  return { choice: Number(m[1]), content };
}
