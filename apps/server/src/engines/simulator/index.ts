/**
 * The built-in simulator: the default engine for every model. It honours the request surface (n, max_tokens,
 * stop, JSON mode, partial mode, tools, `$web_search`, reasoning, automatic prefix caching) deterministically and
 * streams at a configurable pace. Responses carry `system_fingerprint: "moonport-simulator"`.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { countMessageTokens, countToolTokens } from "../../chat/prompt-tokens.ts";
import { countTokens, REPLY_PRIMING, truncateToTokens } from "../../chat/tokenizer.ts";
import type { ChatMessage, ChatRequest, ToolDef } from "../../chat/types.ts";
import type { Engine, EngineContext, EngineEvent, FinishReason, ToolCallDelta } from "../types.ts";
import {
  composeAnswer,
  composeArguments,
  composeJson,
  composeReasoning,
  composeSearchAnswer,
  composeToolFollowUp,
  lastQuestion,
  searchResultsText,
  toolScore,
} from "./compose.ts";
import { createRng, hash32, type Rng } from "./rng.ts";
import { valueFromSchema } from "./schema-value.ts";
import type { SearchProvider, SearchResult } from "./search.ts";

const SIMULATOR_FINGERPRINT = "moonport-simulator";

interface SimulatorOptions {
  /** Pause per streamed token (ms); 0 streams as fast as possible. */
  delayMs: number;
  /** Documentation search used to answer questions about the platform. */
  docs: SearchProvider;
  /** Provider behind the `$web_search` builtin. */
  webSearch: SearchProvider;
}

interface PlannedChoice {
  reasoning: string;
  content: string;
  toolCalls: { id: string; type: "function" | "builtin_function"; name: string; arguments: string }[];
  finishReason: FinishReason;
  completionTokens: number;
}

/** Opaque id handed to the client inside `$web_search` arguments; it lets a stateless server redo the search. */
function encodeSearchId(query: string): string {
  return Buffer.from(query, "utf8").toString("base64url");
}
function decodeSearchQuery(argumentsJson: string): string | undefined {
  try {
    const v = JSON.parse(argumentsJson) as { search_result?: { search_id?: unknown } };
    const id = v.search_result?.search_id;
    return typeof id === "string" ? Buffer.from(id, "base64url").toString("utf8") : undefined;
  } catch {
    return undefined;
  }
}

/** Splits text into streaming pieces of roughly one token: a word with its leading space, or one CJK character. */
function pieces(text: string): string[] {
  return text.match(/[\u3000-\u9fff\uff00-\uffef]|\s*[^\s\u3000-\u9fff\uff00-\uffef]+|\s+/g) ?? [];
}

/**
 * Automatic prefix caching, as K2/kimi-latest do it: a request whose leading messages repeat an earlier request
 * of the same scope and model gets those tokens back as `cached_tokens`. Bounded; oldest entries go first.
 */
class PrefixCache {
  private readonly entries = new Map<string, true>();
  constructor(private readonly max = 50_000) {}

  lookupAndStore(scope: string, model: string, tools: readonly ToolDef[], messages: readonly ChatMessage[]): number {
    let a = hash32(`${scope}\u0000${model}\u0000${JSON.stringify(tools)}`);
    let b = hash32(`${model}\u0001${scope}`, 0x9e3779b9);
    let hit = 0;
    const keys: string[] = [];
    for (let i = 0; i < messages.length - 1; i++) {
      const m = JSON.stringify(messages[i]);
      a = hash32(m, a);
      b = hash32(m, b ^ 0x85ebca6b);
      const key = `${a.toString(36)}.${b.toString(36)}`;
      keys.push(key);
      if (this.entries.has(key)) hit = i + 1;
    }
    for (const k of keys) {
      this.entries.delete(k);
      this.entries.set(k, true);
    }
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    if (hit === 0) return 0;
    return countMessageTokens(messages.slice(0, hit)) - REPLY_PRIMING + countToolTokens(tools);
  }
}

export class SimulatorEngine implements Engine {
  readonly info = { fingerprint: SIMULATOR_FINGERPRINT };
  private readonly cache = new PrefixCache();
  constructor(private readonly opts: SimulatorOptions) {}

  async *chat(req: ChatRequest, ctx: EngineContext): AsyncIterable<EngineEvent> {
    const { choices, searchTokens } = await this.plan(req, ctx.signal);
    const cachedTokens = req.billedModel.capabilities.autoCaching
      ? this.cache.lookupAndStore(ctx.cacheScope, req.billedModel.id, req.tools, req.messages)
      : 0;
    const delay = this.opts.delayMs;

    if (!req.stream) {
      // The whole answer at once, after the time generating it would have taken.
      const steps = Math.max(...choices.map((c) => c.completionTokens));
      if (delay > 0 && steps > 0) await sleep(delay * steps, undefined, { signal: ctx.signal });
      for (const [i, c] of choices.entries()) {
        yield {
          type: "delta",
          choice: i,
          ...(c.reasoning ? { reasoning: c.reasoning } : {}),
          content: c.content,
          ...(c.toolCalls.length ? { toolCalls: toolCallDeltas(c, false) } : {}),
        };
        yield { type: "finish", choice: i, finishReason: c.finishReason, completionTokens: c.completionTokens };
      }
    } else {
      // Choices stream side by side, one piece of each per step.
      const queues = choices.map((c) => [
        ...pieces(c.reasoning).map((p): EngineEvent => ({ type: "delta", choice: 0, reasoning: p })),
        ...pieces(c.content).map((p): EngineEvent => ({ type: "delta", choice: 0, content: p })),
        ...toolCallDeltas(c, true).map((d): EngineEvent => ({ type: "delta", choice: 0, toolCalls: [d] })),
      ]);
      const done = choices.map(() => false);
      for (let step = 0; done.some((d) => !d); step++) {
        if (ctx.signal.aborted) return;
        if (delay > 0 && step > 0) await sleep(delay, undefined, { signal: ctx.signal }).catch(() => undefined);
        if (ctx.signal.aborted) return;
        for (const [i, q] of queues.entries()) {
          if (done[i]) continue;
          const ev = q[step];
          if (ev) yield { ...ev, choice: i } as EngineEvent;
          else {
            done[i] = true;
            const c = choices[i]!;
            yield { type: "finish", choice: i, finishReason: c.finishReason, completionTokens: c.completionTokens };
          }
        }
      }
    }
    yield { type: "usage", promptTokens: req.promptTokens + searchTokens, cachedTokens };
  }

  private async plan(
    req: ChatRequest,
    signal: AbortSignal,
  ): Promise<{ choices: PlannedChoice[]; searchTokens: number }> {
    const seedBase = hash32(
      JSON.stringify([
        req.requestedModel,
        req.messages,
        req.tools,
        req.responseFormat,
        req.jsonSchema,
        req.seed ?? null,
        req.temperature,
      ]),
    );
    const last = req.messages[req.messages.length - 1]!;
    const question = lastQuestion(req.messages);

    // Second half of a $web_search round: the tool message echoes our arguments; search and answer.
    let searchTokens = 0;
    let searchAnswer: string | undefined;
    if (last.role === "tool") {
      const query = this.searchQueryOf(req.messages);
      if (query !== undefined) {
        const results = await this.opts.webSearch.search(query, { signal, limit: 5 });
        searchTokens = countTokens(searchResultsText(results));
        searchAnswer = composeSearchAnswer(query, results);
      }
    }
    const docs: SearchResult[] =
      searchAnswer === undefined && last.role !== "tool"
        ? await this.opts.docs.search(question, { signal, limit: 2, minCoverage: 0.6 })
        : [];

    // First half of a $web_search round: the arguments announce how many tokens the results will take.
    let announcedSearchTokens = 0;
    if (this.willSearch(req)) {
      const results = await this.opts.webSearch.search(searchQuery(question), { signal, limit: 5 });
      announcedSearchTokens = countTokens(searchResultsText(results));
    }

    const choices: PlannedChoice[] = [];
    for (let i = 0; i < req.n; i++) {
      const rng = createRng(hash32(String(i), seedBase));
      choices.push(this.planChoice(req, rng, { docs, searchAnswer, question, announcedSearchTokens }));
    }
    return { choices, searchTokens };
  }

  private willSearch(req: ChatRequest): boolean {
    const last = req.messages[req.messages.length - 1]!;
    if (req.toolChoice === "none" || req.partial || last.role === "tool") return false;
    if (typeof req.toolChoice === "object") return req.toolChoice.name === "$web_search";
    return req.tools.some((t) => t.name === "$web_search");
  }

  private searchQueryOf(messages: readonly ChatMessage[]): string | undefined {
    for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) {
      const m = messages[i]!;
      const call = messages
        .flatMap((x) => x.toolCalls ?? [])
        .find((c) => c.id === m.toolCallId && c.function.name === "$web_search");
      if (!call && m.name !== "$web_search") continue;
      const query = decodeSearchQuery(m.content) ?? (call ? decodeSearchQuery(call.function.arguments) : undefined);
      if (query !== undefined) return query;
    }
    return undefined;
  }

  private planChoice(
    req: ChatRequest,
    rng: Rng,
    ctx: { docs: SearchResult[]; searchAnswer: string | undefined; question: string; announcedSearchTokens: number },
  ): PlannedChoice {
    const last = req.messages[req.messages.length - 1]!;
    let budget = req.maxTokens;
    let used = 0;
    let finishReason: FinishReason = "stop";

    let reasoning = "";
    if (req.billedModel.capabilities.reasoning) {
      const r = truncateToTokens(composeReasoning(req.messages, rng), budget);
      reasoning = r.text;
      used += r.tokens;
      budget -= r.tokens;
      if (r.truncated) return { reasoning, content: "", toolCalls: [], finishReason: "length", completionTokens: used };
    }

    const toolCalls = this.chooseToolCalls(req, rng, ctx.question, ctx.announcedSearchTokens);
    if (toolCalls.length) {
      for (const c of toolCalls) used += countTokens(c.name) + countTokens(c.arguments);
      return { reasoning, content: "", toolCalls, finishReason: "tool_calls", completionTokens: used };
    }

    let content: string;
    if (ctx.searchAnswer !== undefined) content = ctx.searchAnswer;
    else if (last.role === "tool") content = composeToolFollowUp(req.messages, rng);
    else if (req.jsonSchema) {
      const answer = composeAnswer({ messages: req.messages, modelId: req.requestedModel, rng, docs: ctx.docs });
      content = JSON.stringify(valueFromSchema(req.jsonSchema.schema, { question: ctx.question, answer, rng }));
    } else if (req.responseFormat === "json_object") {
      content = JSON.stringify(
        composeJson({ messages: req.messages, modelId: req.requestedModel, rng, docs: ctx.docs }),
      );
    } else content = composeAnswer({ messages: req.messages, modelId: req.requestedModel, rng, docs: ctx.docs });

    if (req.partial) content = continuePrefix(req.partial.prefix, content, req, rng, ctx.docs);

    // Stop sequences end the output before the matched text.
    let cut = -1;
    for (const s of req.stop) {
      const at = content.indexOf(s);
      if (at >= 0 && (cut < 0 || at < cut)) cut = at;
    }
    if (cut >= 0) content = content.slice(0, cut);

    const t = truncateToTokens(content, budget);
    if (t.truncated) finishReason = "length";
    used += t.tokens;
    return { reasoning, content: t.text, toolCalls: [], finishReason, completionTokens: used };
  }

  private chooseToolCalls(
    req: ChatRequest,
    rng: Rng,
    question: string,
    announcedSearchTokens: number,
  ): PlannedChoice["toolCalls"] {
    const last = req.messages[req.messages.length - 1]!;
    const required = req.toolChoice === "required";
    if (!req.tools.length || req.toolChoice === "none" || req.partial || (last.role === "tool" && !required)) return [];
    let tool: ToolDef | undefined;
    if (typeof req.toolChoice === "object") {
      const forced = req.toolChoice.name;
      tool = req.tools.find((t) => t.name === forced);
    } else {
      tool = req.tools.find((t) => t.name === "$web_search");
      if (!tool) {
        const calls = this.fittingToolCalls(req.tools, question, rng);
        if (calls.length || !required) return calls;
        // "required": a call even when no tool fits the question.
        tool = req.tools[0];
      }
    }
    if (!tool) return [];
    if (tool.name === "$web_search") {
      const query = searchQuery(question);
      return [
        {
          id: `${tool.name}:0`,
          type: "builtin_function",
          name: tool.name,
          arguments: JSON.stringify({
            search_result: { search_id: encodeSearchId(query) },
            usage: { total_tokens: announcedSearchTokens },
          }),
        },
      ];
    }
    return [functionCall(tool, 0, composeArguments(tool.parameters, question, rng))];
  }

  /**
   * Calls for `tool_choice: auto`. A question of one part calls the tool that fits it best; a question asking
   * several things ("the weather in Paris and the time in Tokyo") calls, in parallel as real models do
   * (docs/api-compat.md §2.4), the best-fitting tool for each part, with arguments taken from that part.
   */
  private fittingToolCalls(tools: readonly ToolDef[], question: string, rng: Rng): PlannedChoice["toolCalls"] {
    // One call per distinct tool, with the first part that asked for it.
    const picks = new Map<string, { tool: ToolDef; part: string }>();
    for (const part of questionParts(question)) {
      const tool = bestTool(tools, part);
      if (tool && !picks.has(tool.name)) picks.set(tool.name, { tool, part });
    }
    if (picks.size <= 1) {
      const tool = bestTool(tools, question);
      return tool ? [functionCall(tool, 0, composeArguments(tool.parameters, question, rng))] : [];
    }
    return [...picks.values()].map(({ tool, part }, i) =>
      functionCall(tool, i, composeArguments(tool.parameters, part, rng)),
    );
  }
}

function functionCall(tool: ToolDef, index: number, args: Record<string, unknown>): PlannedChoice["toolCalls"][number] {
  return { id: `${tool.name}:${index}`, type: "function", name: tool.name, arguments: JSON.stringify(args) };
}

/** The tool whose name and description share the most words with the text; the first one on a tie. */
function bestTool(tools: readonly ToolDef[], text: string): ToolDef | undefined {
  let best = 0;
  let tool: ToolDef | undefined;
  for (const t of tools) {
    const s = toolScore(t, text);
    if (s > best) {
      best = s;
      tool = t;
    }
  }
  return tool;
}

/** The parts of a question that ask separate things: clauses joined by "and", "also", commas, "和", "，"… */
function questionParts(question: string): string[] {
  return question
    .split(/\s*(?:[,;?!，；？！。]|\band\b|\balso\b|\bthen\b|以及|并且|然后|还有|和)\s*/iu)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

function searchQuery(question: string): string {
  return question.trim().slice(0, 500);
}

/** Continues a partial-mode prefix without repeating it. */
function continuePrefix(prefix: string, full: string, req: ChatRequest, rng: Rng, docs: SearchResult[]): string {
  if (prefix === "") return full;
  if (full.startsWith(prefix)) return full.slice(prefix.length);
  const trimmed = prefix.trimStart();
  if (trimmed.startsWith("{")) {
    const json = JSON.stringify(composeJson({ messages: req.messages, modelId: req.requestedModel, rng, docs }));
    if (json.startsWith(trimmed)) return json.slice(trimmed.length);
    if (trimmed === "{") return json.slice(1);
  }
  const joiner = /[\s\u3000-\u9fff]$/.test(prefix) || /^[\s,.;:!?，。；：！？]/.test(full) ? "" : " ";
  return joiner + full;
}

/** Tool calls as deltas: for streaming, the first fragment names the call and later ones carry the arguments. */
function toolCallDeltas(c: PlannedChoice, stream: boolean): ToolCallDelta[] {
  const out: ToolCallDelta[] = [];
  c.toolCalls.forEach((call, index) => {
    if (!stream) {
      out.push({ index, id: call.id, type: call.type, name: call.name, arguments: call.arguments });
      return;
    }
    out.push({ index, id: call.id, type: call.type, name: call.name, arguments: "" });
    for (let i = 0; i < call.arguments.length; i += 24) out.push({ index, arguments: call.arguments.slice(i, i + 24) });
  });
  return out;
}
