import type { FunctionTool, McpServer, OfficialToolEntry, PlaygroundTool } from "@moonport/contracts";
import { describe, expect, it } from "vitest";
import {
  currentTools,
  entryFor,
  isEnabled,
  sessionOnlyTools,
  setAllTools,
  toggleTool,
  toolEntries,
} from "./tool-catalog.ts";

const official: OfficialToolEntry[] = [
  {
    uri: "moonshot/date:latest",
    billed: false,
    tools: [{ type: "function", function: { name: "date", description: "Today", parameters: { type: "object" } } }],
  },
];
const fn = (over: Partial<FunctionTool> = {}): FunctionTool => ({
  id: "ft1",
  name: "moon",
  description: "Moon facts",
  parameters: '{"type":"object","properties":{"q":{"type":"string"}}}',
  exampleInput: "{}",
  code: "function handler() { return 1; }",
  createdAt: "",
  updatedAt: "",
  ...over,
});
const server = (over: Partial<McpServer> = {}): McpServer => ({
  id: "s1",
  name: "Shouter",
  description: "",
  url: "http://x/mcp",
  transport: "streamable_http",
  authType: "none",
  username: null,
  headerName: null,
  tokenSet: false,
  passwordSet: false,
  timeoutMs: 30000,
  enabled: true,
  status: "connected",
  lastError: null,
  lastConnectedAt: null,
  tools: [{ name: "text.shout", description: "d".repeat(600), inputSchema: {} }],
  toolsSyncedAt: "2026-11-25T00:00:00Z",
  createdAt: "",
  updatedAt: "",
  ...over,
});

describe("the tool catalog of the picker", () => {
  it("lists official, custom and MCP tools; disabled or unsynced servers offer none", () => {
    const entries = toolEntries(official, [fn()], [server(), server({ id: "s2", enabled: false })]);
    expect(entries.map((e) => [e.kind, e.definition.function.name])).toEqual([
      ["official", "date"],
      ["function", "moon"],
      ["mcp", "text_shout"],
    ]);
    const mcp = entries[2]!;
    // The call goes to the server under the tool's own name; the definition is one the chat API accepts.
    expect(mcp).toMatchObject({ name: "text.shout", target: "s1" });
    expect(mcp.definition.function.parameters).toEqual({ type: "object", properties: {} });
    expect(mcp.definition.function.description).toHaveLength(500);
    expect(toolEntries([], [], [server({ toolsSyncedAt: null })])).toEqual([]);
  });

  it("enables, disables, all and none, keeping names unique and the session's own tools", () => {
    const entries = toolEntries(official, [fn(), fn({ id: "ft2", name: "date" })], []);
    const own: PlaygroundTool = { type: "function", function: { name: "get_weather" } };
    let tools = toggleTool([own], entries[0]!, true);
    expect(isEnabled(entries[0]!, tools, entries)).toBe(true);
    // A custom tool named like an official one: the first of the name is the one that runs.
    expect(isEnabled(entries[2]!, tools, entries)).toBe(false);
    expect(entryFor("date", entries)?.kind).toBe("official");
    tools = setAllTools(tools, entries, true);
    expect(tools.map((t) => t.function.name)).toEqual(["get_weather", "date", "moon"]);
    expect(sessionOnlyTools(tools, entries)).toEqual([own]);
    expect(setAllTools(tools, entries, false)).toEqual([own]);
    tools = toggleTool(tools, entries[1]!, false);
    expect(tools.map((t) => t.function.name)).toEqual(["get_weather", "date"]);
  });

  it("sends a custom tool's current definition after it was edited", () => {
    const before = toolEntries([], [fn()], []);
    const tools = toggleTool([], before[0]!, true);
    const after = toolEntries([], [fn({ description: "Edited" })], []);
    expect(currentTools(tools, after)[0]!.function.description).toBe("Edited");
  });
});
