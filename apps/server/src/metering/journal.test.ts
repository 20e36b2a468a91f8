import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BillJournal, entryJson, type JournalEntry } from "./journal.ts";

const entry = (i: number): JournalEntry => ({
  requestId: `req-${i}`,
  orgId: "org",
  projectId: "proj",
  apiKeyId: "key",
  status: "ok",
  latencyMs: 1,
  createdAt: Date.now(),
  lines: [],
});

/** A disk whose fdatasync takes `ms` (a virtual disk's flush), counting the calls. */
function slowDisk(ms: number) {
  const calls = { n: 0 };
  vi.spyOn(fs, "fdatasync").mockImplementation(((_fd: number, cb: (e: Error | null) => void) => {
    calls.n++;
    setTimeout(() => cb(null), ms);
  }) as typeof fs.fdatasync);
  return calls;
}

const journals: BillJournal[] = [];
function openJournal(sync: { mode: "always" | "interval"; intervalMs: number }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "journal-test-"));
  const j = BillJournal.open(dir, "t1", sync);
  journals.push(j);
  return j;
}

afterEach(async () => {
  vi.restoreAllMocks();
  for (const j of journals.splice(0)) j.abandon();
});

describe("bill journal syncing", () => {
  it("syncs a busy journal once per interval in interval mode, not back to back", async () => {
    const calls = slowDisk(5);
    const j = openJournal({ mode: "interval", intervalMs: 50 });
    const started = Date.now();
    for (let i = 0; Date.now() - started < 500; i++) {
      await j.append(entry(i));
      await new Promise((r) => setTimeout(r, 1));
    }
    // ~10 intervals in 500 ms; looping while dirty would sync about every 5 ms (~100 calls).
    expect(calls.n).toBeGreaterThanOrEqual(5);
    expect(calls.n).toBeLessThanOrEqual(14);
  });

  it("answers an append in always mode only after an fdatasync that began after its write", async () => {
    const calls = slowDisk(5);
    const j = openJournal({ mode: "always", intervalMs: 50 });
    const a = j.append(entry(1));
    const b = j.append(entry(2));
    await Promise.all([a, b]);
    const before = calls.n;
    expect(before).toBeGreaterThanOrEqual(1);
    // A line written while a sync runs waits for the next one (group commit loops in this mode).
    const c = j.append(entry(3));
    await c;
    expect(calls.n).toBeGreaterThan(before);
  });
});

describe("open streams in the journal", () => {
  const open = (lineId: string) => ({
    kind: "open" as const,
    lineId,
    requestId: `req-${lineId}`,
    orgId: "org",
    projectId: "proj",
    apiKeyId: "key",
    model: "moonshot-v1-8k",
    prices: { input: "1", cacheHit: "1", output: "2" },
    startedAt: Date.now(),
  });
  const lines = (j: BillJournal) =>
    fs
      .readFileSync(j.file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind?: string; lineId?: string });

  it("writes a stream's open line just before its first progress line, and nothing for a stream that ends first", async () => {
    const j = openJournal({ mode: "interval", intervalMs: 30 });
    let produced = 0;
    j.track(
      "short",
      () => open("short"),
      () => ({ promptTokens: 5, completionTokens: 1, cachedTokens: 0 }),
    );
    j.untrack("short");
    j.track(
      "long",
      () => open("long"),
      () => ({ promptTokens: 5, completionTokens: ++produced, cachedTokens: 0 }),
    );
    await new Promise((r) => setTimeout(r, 100));
    const written = lines(j);
    expect(written.some((l) => l.lineId === "short")).toBe(false);
    expect(written[0]).toMatchObject({ kind: "open", lineId: "long", requestId: "req-long" });
    expect(written.slice(1).every((l) => l.kind === "progress" && l.lineId === "long")).toBe(true);
    expect(written.filter((l) => l.kind === "open")).toHaveLength(1);
    j.untrack("long");
  });
});

describe("journal lines", () => {
  const TEXT = [
    "plain",
    'quote " inside',
    "back\\slash",
    "tab\tnew\nline",
    "中文 ✓",
    "\u0000\u001f\u007f",
    "\ud800 lone",
    "",
  ];

  it("are exactly what JSON.stringify writes, text that needs escaping included", () => {
    for (const text of TEXT) {
      const e: JournalEntry = {
        requestId: `req ${text}`,
        orgId: text,
        projectId: "proj",
        apiKeyId: "key",
        status: "ok",
        latencyMs: 12,
        createdAt: 1_795_843_627_785,
        lines: [
          {
            id: "bill_1",
            model: text,
            productName: "moonshot-v1-8k",
            productType: "model_inference",
            inputTokens: 20,
            outputTokens: 12,
            cachedTokens: 0,
            toolCalls: 0,
            consumption: "123456",
          },
          {
            id: "bill_2",
            model: "moonshot-v1-8k",
            productName: "context_cache_call",
            productType: "context_caching",
            inputTokens: 0,
            outputTokens: 0,
            cachedTokens: Number.NaN,
            toolCalls: 1,
            consumption: "1",
            contextCacheId: `cache ${text}`,
          },
        ],
      };
      expect(entryJson(e)).toBe(JSON.stringify(e));
      expect(JSON.parse(entryJson(e))).toEqual(JSON.parse(JSON.stringify(e)));
    }
    const empty = entry(1);
    expect(entryJson(empty)).toBe(JSON.stringify(empty));
  });
});
