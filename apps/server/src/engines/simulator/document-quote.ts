/**
 * File Q&A in the simulator: when the conversation carries a document in a system message (the extracted text of
 * an uploaded file, as the file-QA guide shows), the answer quotes the passage that best matches the question.
 * Lexical and deterministic: words (crudely stemmed) for alphabetic text, character pairs for Chinese.
 */
import type { ChatMessage } from "../../chat/types.ts";

const STOP = new Set(
  (
    "a an the and or of to in on for with is are was were be been how what why when where which who whom do does did can " +
    "could would should will shall may might i you it its this that these those my me your we our they them their about " +
    "from by at as please tell explain give show some any there here than then into out up down over under much many " +
    "document file text according say says said"
  ).split(" "),
);
const CJK_RUN = /[\u3400-\u9fff]+/g;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'-]*/gu;

/** Shortest system message treated as a document (shorter ones are instructions, not content). */
const MIN_DOCUMENT_CHARS = 40;
const MAX_QUOTE_CHARS = 600;

function stem(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && w.endsWith("es")) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

function termsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const run of text.matchAll(CJK_RUN)) {
    const s = run[0];
    if (s.length === 1) out.add(s);
    for (let i = 0; i + 1 < s.length; i++) out.add(s.slice(i, i + 2));
  }
  for (const m of text.replace(CJK_RUN, " ").matchAll(WORD)) {
    const w = m[0].toLowerCase().replace(/['-]+$/, "");
    if (STOP.has(w) || (w.length < 3 && !/^\d+$/.test(w))) continue;
    out.add(stem(w));
  }
  return out;
}

/** Sentences (or lines, for tables and lists) of a document. */
function passagesOf(doc: string): string[] {
  return doc
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?。！？])\s+|(?<=[。！？])/u))
    .map((p) => p.trim())
    .filter((p) => p.length >= 4);
}

/** The passage of the conversation's documents that best answers `question`, or undefined when none fits. */
export function bestPassage(messages: readonly ChatMessage[], question: string): string | undefined {
  const docs = messages.filter((m) => m.role === "system" && m.content.length >= MIN_DOCUMENT_CHARS);
  if (!docs.length) return undefined;
  const wanted = termsOf(question);
  if (!wanted.size) return undefined;
  let best: string | undefined;
  let bestScore = 0;
  for (const doc of docs) {
    for (const passage of passagesOf(doc.content)) {
      let score = 0;
      for (const term of termsOf(passage)) if (wanted.has(term)) score++;
      if (score > bestScore) {
        best = passage;
        bestScore = score;
      }
    }
  }
  // At least two of the question's terms (one for a one-term question) and a third of them: an unrelated system
  // prompt that shares a word with the question is not quoted.
  if (!best || bestScore < Math.min(2, wanted.size) || bestScore * 3 < wanted.size) return undefined;
  return best.length > MAX_QUOTE_CHARS ? `${best.slice(0, MAX_QUOTE_CHARS)}…` : best;
}
