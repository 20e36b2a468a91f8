/**
 * What the simulator says. No language model is involved: answers are composed from the request itself (its
 * question, tool schemas, tool results, JSON examples) and from the platform's documentation, with wording
 * varied by a seeded generator so that the same request always gets the same answer.
 */
import type { ChatMessage, ImagePart, JsonSchema, ToolDef } from "../../chat/types.ts";
import { bestPassage } from "./document-quote.ts";
import type { Rng } from "./rng.ts";
import type { SearchResult } from "./search.ts";

type Lang = "en" | "zh";
const CJK = /[\u3400-\u9fff]/;

function languageOf(text: string): Lang {
  return CJK.test(text) ? "zh" : "en";
}

/** The text the reply answers: the last user message (or the last message of any role). */
export function lastQuestion(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user") return m.content;
  }
  return messages[messages.length - 1]?.content ?? "";
}

const STOP = new Set(
  "a an the and or of to in on for with is are was be how what why when which who do does can could would i you it this that my me your use using about from by at as please tell explain give show me some any".split(
    " ",
  ),
);

/** The most telling words of a question, in order of appearance. */
function keyTerms(text: string, max = 4): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  if (CJK.test(text)) {
    for (const m of text.matchAll(/[\u3400-\u9fff]{2,6}|[A-Za-z][\w.-]+/g)) {
      if (!seen.has(m[0])) {
        seen.add(m[0]);
        out.push(m[0]);
      }
      if (out.length >= max) break;
    }
    return out;
  }
  for (const m of text.matchAll(/[A-Za-z][\w.$-]*/g)) {
    const w = m[0].replace(/[.-]+$/, "");
    const lw = w.toLowerCase();
    if (w.length < 3 || STOP.has(lw) || seen.has(lw)) continue;
    seen.add(lw);
    out.push(w);
    if (out.length >= max) break;
  }
  return out;
}

/** A little arithmetic, so "what is 12 * 7" gets a right answer. */
function arithmetic(text: string): string | undefined {
  const m = /(-?\d+(?:\.\d+)?)\s*([+\-*/×÷x])\s*(-?\d+(?:\.\d+)?)/.exec(text);
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const op = m[2]!;
  const r = op === "+" ? a + b : op === "-" ? a - b : op === "/" || op === "÷" ? (b === 0 ? Number.NaN : a / b) : a * b;
  if (!Number.isFinite(r)) return undefined;
  return `${m[1]} ${op} ${m[3]} = ${Number(r.toFixed(10))}`;
}

const GREETING =
  /^\s*(?:(?:hi|hello|hey|good (?:morning|afternoon|evening)|bonjour|hola|hallo|ciao)\b|你好|您好|嗨|哈喽)/i;
const WHO = /(who are you|what (model|are you)|your name|你是谁|你叫什么|什么模型)/i;

const EN = {
  open: [
    "Here is what I can tell you about {topic}.",
    "Good question about {topic}.",
    "Let me walk through {topic} step by step.",
    "Short answer first, then the details on {topic}.",
  ],
  body: [
    "The key is to be precise about what you need: the clearer the goal, the more useful the result.",
    "Start with the simplest version that works, check it against a real example, then refine it.",
    "It helps to break the problem into smaller parts and handle each one on its own.",
    "Keep the trade-offs in mind: speed, cost and accuracy rarely peak at the same time.",
    "A concrete example usually settles questions like this faster than theory does.",
    "If something behaves unexpectedly, narrowing the input down to the smallest failing case is the quickest way forward.",
    "Write down the assumptions you are making, because most surprises come from an assumption that turned out to be wrong.",
    "Measure before and after any change so that you know it actually helped.",
  ],
  close: [
    "Let me know if you want me to go deeper into any part.",
    "I hope this helps; ask again with more detail for a more specific answer.",
    "Tell me more about your situation and I can make this more concrete.",
  ],
  simulator:
    "(This reply was composed by the platform's built-in simulator, which answers without a language model; connect an upstream model for real completions.)",
  docs: ["According to the documentation ({title}):", "The documentation covers this in “{title}”:"],
  quote: "According to the document: “{passage}”",
  greet: "Hello! I am {model}, running on the platform's built-in simulator. How can I help you today?",
  who: "I am {model}. On this deployment I am served by the platform's built-in simulator, which composes answers deterministically from your request and the platform documentation instead of running a language model.",
  math: "The result is {expr}.",
  toolResult: "Based on the result of {name}: {summary}.",
  searchIntro: "I searched for “{query}” and found:",
  searchNone: "I searched for “{query}” but found nothing relevant.",
  searchClose: "In short: {gist}",
  reasoning: [
    "The user is asking about {topic}.",
    "I should first make sure I understand what exactly is being asked.",
    "Then I will give a direct answer and add the details that matter.",
    "Let me check whether there is any ambiguity that needs to be addressed.",
  ],
};

const ZH = {
  open: [
    "关于{topic}，我的回答如下。",
    "这是一个关于{topic}的好问题。",
    "下面一步一步说明{topic}。",
    "先给出简短结论，再展开说明{topic}。",
  ],
  body: [
    "关键在于把需求说清楚：目标越明确，结果越有用。",
    "先做出能工作的最简版本，用真实的例子验证，再逐步完善。",
    "把问题拆成几个小部分，分别处理，会容易很多。",
    "要注意权衡：速度、成本和准确性很少能同时达到最优。",
    "一个具体的例子往往比抽象的理论更快地说明问题。",
    "如果结果出乎意料，把输入缩小到最小的出错场景是最快的排查方法。",
    "把你所做的假设写下来，因为大多数意外都来自某个不成立的假设。",
    "每次修改前后都做一次测量，才能确认修改确实有效。",
  ],
  close: [
    "如需进一步展开任何部分，请告诉我。",
    "希望对你有帮助；补充更多细节可以得到更具体的回答。",
    "告诉我更多你的具体情况，我可以给出更具体的建议。",
  ],
  simulator: "（本回复由平台内置的模拟器生成，它不运行语言模型；接入上游模型即可获得真实的回答。）",
  docs: ["根据文档（{title}）：", "文档「{title}」中有说明："],
  quote: "根据文件内容：“{passage}”",
  greet: "你好！我是 {model}，当前由平台内置的模拟器提供服务。有什么可以帮你的吗？",
  who: "我是 {model}。在本平台上，我由内置模拟器提供服务：它根据你的请求和平台文档确定性地生成回答，而不是运行语言模型。",
  math: "计算结果是 {expr}。",
  toolResult: "根据 {name} 的返回结果：{summary}。",
  searchIntro: "我搜索了「{query}」，找到以下内容：",
  searchNone: "我搜索了「{query}」，但没有找到相关内容。",
  searchClose: "总结：{gist}",
  reasoning: [
    "用户在询问{topic}。",
    "我需要先确认问题的确切含义。",
    "然后直接给出答案，并补充重要的细节。",
    "再检查一下是否有需要说明的歧义。",
  ],
};

/** What the question is about, for the opening sentence: key words in English, the question itself in Chinese. */
function topicOf(question: string, lang: Lang): string {
  if (lang === "zh") {
    const q = question.replace(/[\s？?。！!，,]+$/u, "").trim();
    return q ? `「${q.length > 20 ? `${q.slice(0, 20)}…` : q}」` : "这个问题";
  }
  const terms = keyTerms(question);
  return terms.length ? terms.slice(0, 2).join(" and ") : "this";
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? "");
}

function firstSentences(text: string, count: number): string {
  const parts = text.replace(/\s+/g, " ").match(/[^.!?。！？]+[.!?。！？]?/g) ?? [text];
  return parts.slice(0, count).join("").trim();
}

interface ComposeInput {
  messages: readonly ChatMessage[];
  modelId: string;
  rng: Rng;
  /** Documentation passages about the question (already searched), best first. */
  docs: SearchResult[];
}

/** Pixel size from the image header (PNG, GIF); other formats by byte size only. */
function imageFacts(img: ImagePart): { format: string; width?: number; height?: number; bytes: number } {
  const pad = img.base64.endsWith("==") ? 2 : img.base64.endsWith("=") ? 1 : 0;
  const bytes = Math.max(0, Math.floor((img.base64.length * 3) / 4) - pad);
  const format = img.mediaType.replace("image/", "").toUpperCase();
  const head = Buffer.from(img.base64.slice(0, 44), "base64");
  if (format === "PNG" && head.length >= 24 && head.readUInt32BE(12) === 0x49484452) {
    return { format, width: head.readUInt32BE(16), height: head.readUInt32BE(20), bytes };
  }
  if (format === "GIF" && head.length >= 10 && head.toString("latin1", 0, 3) === "GIF") {
    return { format, width: head.readUInt16LE(6), height: head.readUInt16LE(8), bytes };
  }
  return { format, bytes };
}

function describeImages(images: readonly ImagePart[], lang: Lang): string {
  const parts = images.map((img) => {
    const f = imageFacts(img);
    const size = f.width && f.height ? `${f.width}×${f.height}` : "";
    return lang === "zh"
      ? `一张 ${f.format} 图片${size ? `（${size} 像素` : "（"}，${f.bytes} 字节）`
      : `a ${f.format} image${size ? ` of ${size} pixels` : ""} (${f.bytes} bytes)`;
  });
  return lang === "zh" ? `我收到了${parts.join("、")}。` : `I received ${parts.join(" and ")}.`;
}

const ORDINALS: Record<string, number> = {
  one: 1,
  first: 1,
  two: 2,
  second: 2,
  three: 3,
  third: 3,
  four: 4,
  fourth: 4,
  five: 5,
  fifth: 5,
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
};
const QUOTE_REQUEST =
  /^\s*(?:(?:quote|repeat)\s+(?:(?:your|the)\s+)?(?:sentence|line)\s+(\d+|one|two|three|four|five)|(?:quote|repeat)\s+(?:(?:your|the)\s+)?(first|second|third|fourth|fifth)\s+(?:sentence|line)|(?:引用|重复|复述)(?:你的)?第\s*([一二三四五\d])\s*句)/i;

/** "Quote sentence 2": that sentence of the system message, word for word, as models readily repeat their prompt. */
function quoteSentence(messages: readonly ChatMessage[], question: string): string | undefined {
  const m = QUOTE_REQUEST.exec(question);
  const which = m?.[1] ?? m?.[2] ?? m?.[3];
  if (!which) return undefined;
  const n = ORDINALS[which.toLowerCase()] ?? Number(which);
  const system = messages.find((x) => x.role === "system")?.content ?? "";
  const sentence = (system.replace(/\s+/g, " ").match(/[^.!?。！？]+[.!?。！？]?/g) ?? [])[n - 1]?.trim();
  if (!sentence) return undefined;
  return `“${sentence}”`;
}

/** A plain-text answer to the conversation. */
export function composeAnswer(input: ComposeInput): string {
  const question = lastQuestion(input.messages);
  const lang = languageOf(question);
  const t = lang === "zh" ? ZH : EN;
  const sep = lang === "zh" ? "" : " ";
  const lastUser = [...input.messages].reverse().find((m) => m.role === "user");
  if (lastUser?.images.length) {
    return `${describeImages(lastUser.images, lang)}${sep}${composeAnswer({ ...input, messages: input.messages.map((m) => (m === lastUser ? { ...m, images: [] } : m)) })}`;
  }
  if (GREETING.test(question) && question.length < 40) return fill(t.greet, { model: input.modelId });
  if (WHO.test(question)) return fill(t.who, { model: input.modelId });
  const math = arithmetic(question);
  if (math) return fill(t.math, { expr: math });

  const quoted = quoteSentence(input.messages, question);
  if (quoted) return quoted;

  // A document in the system message (file Q&A): quote its passage that matches the question.
  const passage = bestPassage(input.messages, question);
  if (passage) return fill(t.quote, { passage });

  const topic = topicOf(question, lang);
  const best = input.docs[0];
  if (best) {
    const parts = [fill(input.rng.pick(t.docs), { title: best.title }), firstSentences(best.snippet, 3)];
    const second = input.docs[1];
    if (second && input.rng.next() < 0.5) parts.push(firstSentences(second.snippet, 1));
    parts.push(lang === "zh" ? `详见 ${best.url}。` : `See ${best.url} for details.`);
    return parts.join(sep);
  }
  const body = [...t.body];
  const sentences = [fill(input.rng.pick(t.open), { topic })];
  const count = 2 + input.rng.int(3);
  for (let i = 0; i < count && body.length; i++) sentences.push(body.splice(input.rng.int(body.length), 1)[0]!);
  sentences.push(input.rng.pick(t.close), t.simulator);
  return sentences.join(sep);
}

/** Reasoning for thinking models: a few short steps about the question. */
export function composeReasoning(messages: readonly ChatMessage[], rng: Rng): string {
  const question = lastQuestion(messages);
  const lang = languageOf(question);
  const t = lang === "zh" ? ZH : EN;
  const topic = topicOf(question, lang);
  const steps = t.reasoning.map((s) => fill(s, { topic }));
  const count = 2 + rng.int(steps.length - 1);
  return steps.slice(0, count).join(lang === "zh" ? "" : " ");
}

/** The answer after tool results came back: summarises what the tools returned. */
export function composeToolFollowUp(messages: readonly ChatMessage[], rng: Rng): string {
  const question = lastQuestion(messages);
  const lang = languageOf(question);
  const t = lang === "zh" ? ZH : EN;
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) {
    const m = messages[i]!;
    out.unshift(
      fill(t.toolResult, { name: m.name ?? toolNameFor(messages, m.toolCallId), summary: summarise(m.content) }),
    );
  }
  out.push(rng.pick(t.close));
  return out.join(lang === "zh" ? "" : " ");
}

function toolNameFor(messages: readonly ChatMessage[], id: string | undefined): string {
  for (const m of messages) for (const c of m.toolCalls ?? []) if (c.id === id) return c.function.name;
  return "the tool";
}

function summarise(content: string): string {
  try {
    const v = JSON.parse(content) as unknown;
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.entries(v)
        .slice(0, 6)
        .map(([k, val]) => `${k} = ${typeof val === "object" ? JSON.stringify(val) : String(val)}`)
        .join(", ");
    }
  } catch {
    // not JSON: quote it
  }
  const flat = content.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** The final answer of a `$web_search` round: the results, then a one-line gist. */
export function composeSearchAnswer(query: string, results: SearchResult[]): string {
  const lang = languageOf(query);
  const t = lang === "zh" ? ZH : EN;
  if (results.length === 0) return fill(t.searchNone, { query });
  const lines = [fill(t.searchIntro, { query })];
  results.slice(0, 3).forEach((r, i) => {
    lines.push(`${i + 1}. ${r.title} (${r.url}): ${firstSentences(r.snippet, 1)}`);
  });
  lines.push(fill(t.searchClose, { gist: firstSentences(results[0]!.snippet, 2) }));
  return lines.join("\n");
}

/** The text the search results occupy in the model's context; its token count is the search's usage. */
export function searchResultsText(results: SearchResult[]): string {
  return results.map((r, i) => `[${i + 1}] ${r.title}\n${r.url}\n${r.snippet}`).join("\n\n");
}

// ─── JSON mode ───────────────────────────────────────────────────────────────────────────────────────────────

/** Finds a JSON object example in the prompt (e.g. a system message describing the output format). */
function exampleObject(messages: readonly ChatMessage[]): Record<string, unknown> | undefined {
  for (const m of messages) {
    if (m.role !== "system" && m.role !== "user") continue;
    const text = m.content;
    for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
      let depth = 0;
      for (let i = start; i < text.length; i++) {
        if (text[i] === "{") depth++;
        else if (text[i] === "}" && --depth === 0) {
          try {
            const v = JSON.parse(text.slice(start, i + 1)) as unknown;
            if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0) {
              return v as Record<string, unknown>;
            }
          } catch {
            // keep looking
          }
          break;
        }
      }
    }
  }
  return undefined;
}

const KEY_WORD = /\b(?:keys?|fields?|properties|attributes)\b|字段|键/i;
const NOT_KEYS = new Set(
  "the and or with a an named called following json object key keys field fields property properties attributes return reply answer respond only in as of format exactly these those three two four five".split(
    " ",
  ),
);

/**
 * Keys a prompt names for its JSON answer ("reply with the keys name, age and city", "包含 name、age 两个字段"):
 * quoted names if the sentence quotes any, else the words after the keyword (in Chinese, the sentence's Latin
 * words, since the keyword follows the list).
 */
function namedKeys(messages: readonly ChatMessage[]): string[] | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "system" && m.role !== "user") continue;
    for (const sentence of m.content.split(/[.。!?！？;；\n]+/)) {
      const kw = KEY_WORD.exec(sentence);
      if (!kw) continue;
      const quoted = [...sentence.matchAll(/[`"'“‘]([A-Za-z_][\w-]{0,63})[`"'”’]/g)].map((x) => x[1]!);
      const scope = CJK.test(sentence) ? sentence : sentence.slice(kw.index + kw[0].length);
      const words = quoted.length ? quoted : (scope.match(/[A-Za-z_][\w-]{0,63}/g) ?? []);
      const keys = [...new Set(words.filter((w) => !NOT_KEYS.has(w.toLowerCase())))].slice(0, 32);
      if (keys.length) return keys;
    }
  }
  return undefined;
}

/** A value for a key the prompt named, of the kind its name suggests. */
function valueForKey(key: string, input: ComposeInput, answer: string, question: string): unknown {
  if (/answer|content|text|reply|summary|description|explanation/i.test(key)) return answer;
  if (/^(is|has|can|should)[_A-Z]|valid|enabled|correct/i.test(key)) return !/\b(no|not|false)\b|不/.test(question);
  if (/age|count|number|total|price|amount|score|year|quantity|rating/i.test(key)) {
    const n = /-?\d+(?:\.\d+)?/.exec(question);
    return n ? Number(n[0]) : 1 + input.rng.int(99);
  }
  if (/(?:tags|items|topics|keywords|list|steps)$/i.test(key)) return keyTerms(question);
  if (/lang/i.test(key)) return languageOf(question) === "zh" ? "zh-CN" : "en-US";
  return stringFor(key, {}, question);
}

/**
 * A JSON object answering the conversation. If the prompt shows an example object, the answer has the same
 * keys and value types; if it names the keys, it has those; otherwise it carries the answer text with its topic
 * and language.
 */
export function composeJson(input: ComposeInput): Record<string, unknown> {
  const answer = composeAnswer(input);
  const question = lastQuestion(input.messages);
  const example = exampleObject(input.messages);
  if (!example) {
    const keys = namedKeys(input.messages);
    if (keys) return Object.fromEntries(keys.map((k) => [k, valueForKey(k, input, answer, question)]));
    return { answer, topics: keyTerms(question), language: languageOf(question) === "zh" ? "zh-CN" : "en-US" };
  }
  const fillLike = (v: unknown, key: string): unknown => {
    if (typeof v === "string")
      return /answer|content|text|reply|summary|description/i.test(key) ? answer : (keyTerms(question)[0] ?? v);
    if (typeof v === "number")
      return Number.isInteger(v) ? input.rng.int(100) : Math.round(input.rng.next() * 100) / 100;
    if (typeof v === "boolean") return input.rng.next() < 0.5;
    if (Array.isArray(v)) return v.length ? [fillLike(v[0], key)] : keyTerms(question);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillLike(x, k)]));
    return v;
  };
  return fillLike(example, "") as Record<string, unknown>;
}

// ─── tool calls ──────────────────────────────────────────────────────────────────────────────────────────────

/** How well a tool fits the question: shared words between the question and the tool's name and description. */
export function toolScore(tool: ToolDef, question: string): number {
  const q = new Set(
    question
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2 && !STOP.has(w)),
  );
  const words = `${tool.name.replace(/[_-]/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2")} ${tool.description}`
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2 && !STOP.has(w));
  let score = 0;
  for (const w of new Set(words)) {
    if (q.has(w) || [...q].some((x) => x.length > 3 && (x.startsWith(w) || w.startsWith(x)))) score++;
  }
  // Chinese questions: any CJK word of the description appearing in the question counts.
  for (const m of tool.description.matchAll(/[\u3400-\u9fff]{2}/g)) if (question.includes(m[0])) score++;
  return score;
}

const MAX_EXAMPLE_ITEMS = 8;

/** Arguments satisfying the tool's JSON schema: every required property, with values taken from the question. */
export function composeArguments(schema: JsonSchema, question: string, rng: Rng): Record<string, unknown> {
  const props = schema.properties ?? {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const out: Record<string, unknown> = {};
  for (const key of required) {
    const sub = Object.hasOwn(props, key) ? props[key] : undefined;
    // Boolean schemas (`true`) and missing ones accept anything: a string will do.
    Object.defineProperty(out, key, {
      value: valueFor(key, sub && typeof sub === "object" ? sub : {}, question, rng),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function valueFor(key: string, s: JsonSchema, question: string, rng: Rng): unknown {
  if (Array.isArray(s.enum) && s.enum.length) {
    return s.enum.find((e) => typeof e === "string" && question.toLowerCase().includes(e.toLowerCase())) ?? s.enum[0];
  }
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== "null") : s.type;
  switch (type) {
    case "integer":
    case "number": {
      const num = /-?\d+(?:\.\d+)?/.exec(question);
      let v = num ? Number(num[0]) : (s.minimum ?? 1);
      if (type === "integer") v = Math.round(v);
      if (s.minimum !== undefined && v < s.minimum) v = s.minimum;
      if (s.maximum !== undefined && v > s.maximum) v = s.maximum;
      return v;
    }
    case "boolean":
      return !/\b(no|not|false|don't)\b|不/.test(question);
    case "array": {
      // A few items show the shape; validation caps minItems, this keeps answers short whatever it is.
      const count = Math.min(MAX_EXAMPLE_ITEMS, Math.max(1, s.minItems ?? 1));
      const item = s.items && typeof s.items === "object" && !Array.isArray(s.items) ? s.items : { type: "string" };
      return Array.from({ length: count }, () => valueFor(key, item, question, rng));
    }
    case "object":
      return composeArguments(s, question, rng);
    case "null":
      return null;
    default:
      return stringFor(key, s, question);
  }
}

export function stringFor(key: string, s: JsonSchema, question: string): string {
  const k = key.toLowerCase();
  const quoted = /["“「'](.+?)["”」']/.exec(question)?.[1];
  if (/date/.test(k) || s.format === "date") return /\d{4}-\d{2}-\d{2}/.exec(question)?.[0] ?? "today";
  if (/email/.test(k) || s.format === "email")
    return /[\w.+-]+@[\w-]+\.[\w.]+/.exec(question)?.[0] ?? "user@example.com";
  if (/url|link/.test(k) || s.format === "uri") return /https?:\/\/\S+/.exec(question)?.[0] ?? "https://example.com";
  if (/city|location|place|country|region|address|城市|地点/.test(k)) {
    const cn = /([\u3400-\u9fff]{2,4})(?:的|今天|明天|天气)/.exec(question)?.[1];
    if (cn) return cn;
    const proper = [...question.matchAll(/(?<!^|[.!?]\s)\b([A-Z][a-z]+(?:\s[A-Z][a-z]+)*)/g)].map((m) => m[1]!);
    return proper[proper.length - 1] ?? keyTerms(question)[0] ?? question.trim().slice(0, 40);
  }
  if (/query|keyword|search|question|prompt|text|content|input|message/.test(k))
    return quoted ?? question.trim().slice(0, 200);
  return quoted ?? keyTerms(question)[0] ?? question.trim().slice(0, 40);
}
