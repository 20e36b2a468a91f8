import type { FunctionTool, McpServer, OfficialToolEntry, PlaygroundTool } from "@moonport/contracts";

/**
 * Model runs of one tool loop: a model that still calls tools after this many answers is stopped there (the
 * footer says so), so a model and a tool that keep calling each other cannot run up a bill.
 */
export const MAX_TOOL_STEPS = 8;

/** Where a tool runs: what POST …/playground/tool-calls needs besides the call itself. */
export type ToolKind = "official" | "function" | "mcp";

/** One tool the picker offers. `key` is unique; `definition.function.name` is what the model calls. */
export interface ToolEntry {
  key: string;
  kind: ToolKind;
  /** Formula URI, function tool id or MCP server id. */
  target: string;
  /** The tool's name on its side (an MCP tool's own name; the function name otherwise). */
  name: string;
  /** Official: the formula URI; MCP: the server's name. */
  group: string;
  billed: boolean;
  definition: PlaygroundTool;
}

const MAX_DESCRIPTION = 500;

/** A definition the chat request accepts: an object schema (MCP servers may send none) and a short description. */
function definitionOf(name: string, description: string, parameters: unknown): PlaygroundTool {
  const schema =
    parameters && typeof parameters === "object" && (parameters as { type?: unknown }).type === "object"
      ? (parameters as PlaygroundTool["function"]["parameters"])
      : { type: "object" as const, properties: {} };
  return {
    type: "function",
    function: {
      name,
      ...(description ? { description: description.slice(0, MAX_DESCRIPTION) } : {}),
      parameters: schema,
    },
  };
}

/**
 * A name the chat API accepts (^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$) for an MCP tool, whose own name may hold dots or
 * slashes; the call still goes to the server under the tool's own name (`ToolEntry.name`).
 */
function wireName(name: string): string {
  let n = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (!/^[a-zA-Z_]/.test(n)) n = `_${n}`;
  return n.padEnd(3, "_").slice(0, 64);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every tool of the picker, in its order: official, custom functions, then each enabled, synced MCP server's. */
export function toolEntries(
  official: readonly OfficialToolEntry[],
  functions: readonly FunctionTool[],
  servers: readonly McpServer[],
): ToolEntry[] {
  const entries: ToolEntry[] = [];
  for (const f of official) {
    for (const tool of f.tools) {
      entries.push({
        key: `official:${f.uri}:${tool.function.name}`,
        kind: "official",
        target: f.uri,
        name: tool.function.name,
        group: f.uri,
        billed: f.billed,
        definition: definitionOf(tool.function.name, tool.function.description, tool.function.parameters),
      });
    }
  }
  for (const fn of functions) {
    entries.push({
      key: `function:${fn.id}`,
      kind: "function",
      target: fn.id,
      name: fn.name,
      group: "",
      billed: false,
      definition: definitionOf(fn.name, fn.description, parsed(fn.parameters)),
    });
  }
  for (const s of servers) {
    if (!s.enabled || !s.toolsSyncedAt) continue;
    for (const tool of s.tools) {
      entries.push({
        key: `mcp:${s.id}:${tool.name}`,
        kind: "mcp",
        target: s.id,
        name: tool.name,
        group: s.name,
        billed: false,
        definition: definitionOf(wireName(tool.name), tool.description, tool.inputSchema),
      });
    }
  }
  return entries;
}

const nameOf = (t: PlaygroundTool) => t.function.name;

/** The entry an enabled tool stands for: the first of that name (the picker keeps names unique). */
export function entryFor(name: string, entries: readonly ToolEntry[]): ToolEntry | undefined {
  return entries.find((e) => e.definition.function.name === name);
}

/** Whether the picker shows `entry` as enabled. */
export function isEnabled(entry: ToolEntry, tools: readonly PlaygroundTool[], entries: readonly ToolEntry[]): boolean {
  const name = entry.definition.function.name;
  return tools.some((t) => nameOf(t) === name) && entryFor(name, entries)?.key === entry.key;
}

/** Turns one entry on or off; turning on replaces an enabled tool of the same name (names must be unique). */
export function toggleTool(tools: readonly PlaygroundTool[], entry: ToolEntry, on: boolean): PlaygroundTool[] {
  const name = entry.definition.function.name;
  const rest = tools.filter((t) => nameOf(t) !== name);
  return on ? [...rest, entry.definition] : rest;
}

/** All: every entry (the first of each name) plus the session's own tools; none: the session's own tools only. */
export function setAllTools(tools: readonly PlaygroundTool[], entries: readonly ToolEntry[], on: boolean) {
  const own = sessionOnlyTools(tools, entries);
  if (!on) return own;
  const seen = new Set(own.map(nameOf));
  const all = [...own];
  for (const e of entries) {
    if (seen.has(nameOf(e.definition))) continue;
    seen.add(nameOf(e.definition));
    all.push(e.definition);
  }
  return all;
}

/** Tools the session carries that no source here provides (a template's example tool, an imported session's). */
export function sessionOnlyTools(tools: readonly PlaygroundTool[], entries: readonly ToolEntry[]): PlaygroundTool[] {
  return tools.filter((t) => !entryFor(nameOf(t), entries));
}

/** The enabled tools with their current definitions (a custom tool edited since it was enabled sends its new schema). */
export function currentTools(tools: readonly PlaygroundTool[], entries: readonly ToolEntry[]): PlaygroundTool[] {
  return tools.map((t) => entryFor(nameOf(t), entries)?.definition ?? t);
}
