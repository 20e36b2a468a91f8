/**
 * The bill journal: an append-only file per gateway instance. A bill counts as recorded once its line is written
 * (write(2): it then survives a crash of the process) — and, with BILLING_JOURNAL_FSYNC=always, once it is
 * fdatasync'd (it then survives a power loss too; one fdatasync covers every line written before it, so many
 * requests share one). The default syncs every BILLING_JOURNAL_FSYNC_MS in the background instead, because one
 * fdatasync costs milliseconds on ordinary disks and the response would wait for it. The bill writer commits journaled bills to the database in batches; a process that
 * dies before that leaves its file behind, and the next instance to start on the host replays it. Replays are
 * idempotent because every bill line carries an id generated before it was journaled (request_bills.id).
 *
 * File names carry host and pid (bills-<host>-<pid>-<instance>.jsonl, instance = [a-z0-9]+). At start an instance claims (renames)
 * every file whose process is gone, or which belongs to this process but to no live instance (a pipeline that
 * was dropped without closing), settles its entries and deletes it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface BillLine {
  id: string;
  model: string;
  productName: string;
  productType: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  toolCalls: number;
  /** nano-units, decimal string (JSON has no bigint) */
  consumption: string;
  /** Set on lines of an explicit context cache (modules/caches). */
  contextCacheId?: string;
}

export interface JournalEntry {
  requestId: string;
  orgId: string;
  projectId: string;
  apiKeyId: string;
  status: string;
  latencyMs: number;
  /** ms since epoch: when the request was settled */
  createdAt: number;
  lines: BillLine[];
}

/**
 * A stream in progress (one line when it is admitted): enough to bill it if the process dies before settle().
 * Its inference bill line will carry `lineId` either way, so a replay can never bill it twice.
 */
export interface OpenRecord {
  kind: "open";
  lineId: string;
  requestId: string;
  orgId: string;
  projectId: string;
  apiKeyId: string;
  model: string;
  /** Nano-units per token at admission (pricing.ts UnitPrices). */
  prices: { input: string; cacheHit: string; output: string };
  startedAt: number;
}

/** What a tracked stream had produced at `at` (ms since epoch); written in batches, the last one counts. */
export interface ProgressRecord {
  kind: "progress";
  lineId: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  at: number;
}

/** A stream whose process died before it settled, with its last recorded progress. */
export interface InterruptedStream {
  open: OpenRecord;
  progress: ProgressRecord;
}

type Sample = () => { promptTokens: number; completionTokens: number; cachedTokens: number } | null;

/** Printable ASCII without a quote or a backslash: a JSON string needs nothing but its quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function jsonString(s: string): string {
  return PLAIN.test(s) ? `"${s}"` : JSON.stringify(s);
}

/** A number as JSON.stringify writes it (NaN and ±Infinity as null). */
function jsonNumber(n: number): string {
  return Number.isFinite(n) ? `${n}` : "null";
}

function lineJson(l: BillLine): string {
  const cache = l.contextCacheId === undefined ? "" : `,"contextCacheId":${jsonString(l.contextCacheId)}`;
  return `{"id":${jsonString(l.id)},"model":${jsonString(l.model)},"productName":${jsonString(l.productName)},"productType":${jsonString(l.productType)},"inputTokens":${jsonNumber(l.inputTokens)},"outputTokens":${jsonNumber(l.outputTokens)},"cachedTokens":${jsonNumber(l.cachedTokens)},"toolCalls":${jsonNumber(l.toolCalls)},"consumption":${jsonString(l.consumption)}${cache}}`;
}

/**
 * An entry's journal line: what JSON.stringify gives for its declared fields, in their order, built from the known
 * shape. Every settled request writes one, and JSON.stringify's walk of the object was the hottest line of our
 * own code in the gateway's profile (~1.3 µs a request; this takes about half). journal.test.ts holds it equal to
 * JSON.stringify, text that needs escaping included.
 */
export function entryJson(e: JournalEntry): string {
  let lines = "";
  for (const l of e.lines) lines += lines ? `,${lineJson(l)}` : lineJson(l);
  return `{"requestId":${jsonString(e.requestId)},"orgId":${jsonString(e.orgId)},"projectId":${jsonString(e.projectId)},"apiKeyId":${jsonString(e.apiKeyId)},"status":${jsonString(e.status)},"latencyMs":${jsonNumber(e.latencyMs)},"createdAt":${jsonNumber(e.createdAt)},"lines":[${lines}]}`;
}

/** Journal files held by live instances of this process. */
const openHere = new Set<string>();
const HOST = os.hostname().replace(/[^\w.-]/g, "_");
const TRUNCATE_AT = 4 * 1024 * 1024;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface JournalSync {
  /** "always": settle() waits for fdatasync (group commit); "interval": for write(), fdatasync every `intervalMs`. */
  mode: "always" | "interval";
  intervalMs: number;
}

export class BillJournal {
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private syncing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  /** Appended and not yet committed to the database. */
  private pending = 0;
  private bytes = 0;
  private closed = false;
  /**
   * Streams admitted and not yet settled: their open record (made when first needed), its sampler, the last
   * progress written, and whether the open line is in the file yet.
   */
  private readonly tracked = new Map<
    string,
    { open: () => OpenRecord; sample: Sample; last: string; written: boolean }
  >();
  private readonly progressTimer: NodeJS.Timeout;

  private constructor(
    readonly file: string,
    private readonly fd: number,
    private readonly sync: JournalSync,
  ) {
    if (sync.mode === "interval") {
      this.timer = setInterval(() => {
        if (this.dirty && !this.syncing) this.syncing = this.fsyncNow();
      }, sync.intervalMs);
      this.timer.unref();
    }
    // Progress of open streams: one write for all of them per interval, never one per chunk, and no fdatasync of
    // its own (the interval sync, or the next group commit, covers it).
    this.progressTimer = setInterval(() => this.writeProgress(), sync.intervalMs);
    this.progressTimer.unref();
  }

  /**
   * Tracks a stream from admission; `sample` is asked for its usage so far every interval until `untrack`. Its
   * open line is written just before its first progress line, not now: a replay bills an open stream only from
   * its progress (no progress, nothing produced, nothing billed), so an open line alone never counted, and most
   * streams settle before the first interval and so write neither.
   */
  track(lineId: string, open: () => OpenRecord, sample: Sample): void {
    if (this.closed) return;
    this.tracked.set(lineId, { open, sample, last: "", written: false });
  }

  /** The stream settled (its bill line is being appended) or was dropped. */
  untrack(lineId: string): void {
    this.tracked.delete(lineId);
  }

  private writeProgress(): void {
    if (this.closed || this.tracked.size === 0) return;
    let out = "";
    const at = Date.now();
    for (const [lineId, t] of this.tracked) {
      let usage: ReturnType<Sample>;
      try {
        usage = t.sample();
      } catch {
        continue;
      }
      if (!usage) continue;
      const key = `${usage.promptTokens}/${usage.completionTokens}/${usage.cachedTokens}`;
      if (key === t.last) continue;
      t.last = key;
      if (!t.written) {
        t.written = true;
        out += `${JSON.stringify(t.open())}\n`;
      }
      const record: ProgressRecord = { kind: "progress", lineId, ...usage, at };
      out += `${JSON.stringify(record)}\n`;
    }
    if (out) {
      this.writeLine(out);
      this.flushNow();
    }
  }

  /**
   * Lines of one event-loop turn leave in one write(2) at its end (setImmediate): under load many requests settle
   * in the same turn, and a write per line was a syscall per request (two per stream). Nobody is answered before
   * the write: `append` resolves after it (a stream's open and progress lines are only a crash's fallback, see
   * `track`).
   */
  private buffered = "";
  private flushWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private flushScheduled = false;
  private readonly flushBound = () => {
    this.flushScheduled = false;
    this.flushNow();
  };

  private writeLine(text: string): void {
    this.buffered += text;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flushBound);
    }
  }

  private flushNow(): void {
    if (!this.buffered) return;
    const data = this.buffered;
    const waiters = this.flushWaiters;
    this.buffered = "";
    this.flushWaiters = [];
    try {
      this.bytes += fs.writeSync(this.fd, data);
      this.dirty = true;
    } catch (e) {
      for (const w of waiters) w.reject(e);
      return;
    }
    for (const w of waiters) w.resolve();
  }

  static open(dir: string, instanceId: string, sync: JournalSync): BillJournal {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `bills-${HOST}-${process.pid}-${instanceId}.jsonl`);
    const fd = fs.openSync(file, "a");
    openHere.add(file);
    return new BillJournal(file, fd, sync);
  }

  /**
   * Writes the entry (one write(2) of one line: a few microseconds, and from then on it survives a crash of this
   * process). Resolves at once in "interval" mode, after the next fdatasync in "always" mode.
   */
  append(entry: JournalEntry): Promise<void> {
    if (this.closed) return Promise.reject(new Error("bill journal is closed"));
    this.pending++;
    if (this.sync.mode === "interval") {
      return new Promise((resolve, reject) => {
        this.flushWaiters.push({ resolve, reject });
        this.writeLine(`${entryJson(entry)}\n`);
      });
    }
    this.writeLine(`${entryJson(entry)}\n`);
    this.flushNow();
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.syncing) this.syncing = this.fsyncNow();
    });
  }

  /**
   * One fdatasync covers every line written before it started (group commit). In "always" mode it loops while
   * more arrive (their writers wait for it); in "interval" mode the next tick of the timer syncs what came after,
   * so a busy journal is synced once per interval, not back to back (each fdatasync costs the process about a
   * millisecond of CPU on a virtual disk; syncing back to back made ~28 a second under load;
   * docs/decisions/0003-bill-journal-interval-fsync.md).
   */
  private async fsyncNow(): Promise<void> {
    try {
      for (let pass = 0; this.dirty && (pass === 0 || this.sync.mode === "always"); pass++) {
        this.dirty = false;
        const waiters = this.waiters;
        this.waiters = [];
        try {
          await new Promise<void>((resolve, reject) => fs.fdatasync(this.fd, (err) => (err ? reject(err) : resolve())));
          for (const w of waiters) w.resolve();
        } catch (e) {
          for (const w of waiters) w.reject(e);
        }
      }
    } finally {
      this.syncing = null;
    }
  }

  /** `n` journaled entries are now in the database. With nothing outstanding, a large file is emptied. */
  committed(n: number) {
    this.pending -= n;
    // Open streams' records must stay until they settle.
    if (this.pending === 0 && this.tracked.size === 0 && this.bytes > TRUNCATE_AT) {
      fs.ftruncateSync(this.fd, 0);
      this.bytes = 0;
    }
  }

  get outstanding() {
    return this.pending;
  }

  /** Streams journaled at admission and not yet settled. */
  get openStreams() {
    return this.tracked.size;
  }

  /** Clean shutdown: everything committed → the file goes; otherwise it is synced and stays for the next start. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    clearInterval(this.progressTimer);
    this.flushNow();
    if (this.syncing) await this.syncing;
    const keep = this.pending > 0 || this.tracked.size > 0;
    if (keep) fs.fdatasyncSync(this.fd);
    fs.closeSync(this.fd);
    openHere.delete(this.file);
    if (!keep) fs.rmSync(this.file, { force: true });
  }

  /** What a crash leaves: the file as it is. Tests use it to simulate one. */
  abandon() {
    this.closed = true;
    // Lines of this turn never reach the file, as in a crash; nobody was answered on them.
    this.buffered = "";
    for (const w of this.flushWaiters.splice(0)) w.reject(new Error("bill journal abandoned"));
    if (this.timer) clearInterval(this.timer);
    clearInterval(this.progressTimer);
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
    openHere.delete(this.file);
  }
}

/**
 * Claims the journals of dead instances in `dir` (renaming each so no other instance replays it too) and returns
 * their entries with a function that deletes the claimed files once the entries are committed.
 */
export function claimOrphanJournals(
  dir: string,
  instanceId: string,
): { entries: JournalEntry[]; interrupted: InterruptedStream[]; files: string[]; done: () => void } {
  if (!fs.existsSync(dir)) return { entries: [], interrupted: [], files: [], done: () => {} };
  const claimed: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    // <host> may contain dashes; pid and instance id (lowercase alphanumerics) never do.
    const m = /^(?:bills|recovering)-(.+)-(\d+)-([a-z0-9]+)\.jsonl$/.exec(name);
    if (!m) continue;
    const [, host, pidText] = m;
    const file = path.join(dir, name);
    if (openHere.has(file)) continue;
    // Another host's files are that host's to replay (a journal directory is per host).
    if (host !== HOST) continue;
    const pid = Number(pidText);
    if (pid !== process.pid && alive(pid)) continue;
    const target = path.join(dir, `recovering-${HOST}-${process.pid}-${instanceId}r${claimed.length}.jsonl`);
    try {
      fs.renameSync(file, target);
      openHere.add(target);
      claimed.push(target);
    } catch {
      /* someone else claimed it first */
    }
  }
  const entries: JournalEntry[] = [];
  const opens = new Map<string, OpenRecord>();
  const progress = new Map<string, ProgressRecord>();
  for (const file of claimed) {
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      let record: JournalEntry | OpenRecord | ProgressRecord;
      try {
        record = JSON.parse(line);
      } catch {
        // A torn last line: its append never resolved, so that request was never reported as recorded.
        continue;
      }
      if ("kind" in record && record.kind === "open") opens.set(record.lineId, record);
      else if ("kind" in record && record.kind === "progress") progress.set(record.lineId, record);
      else entries.push(record as JournalEntry);
    }
  }
  // A stream that settled is billed by its entry; one that did not is billed from its last progress (nothing
  // recorded: nothing had been produced, nothing is billed, as for a request that ends before its first token).
  for (const e of entries) for (const l of e.lines) opens.delete(l.id);
  const interrupted: InterruptedStream[] = [];
  for (const [lineId, open] of opens) {
    const p = progress.get(lineId);
    if (p) interrupted.push({ open, progress: p });
  }
  return {
    entries,
    interrupted,
    files: claimed,
    done: () => {
      for (const f of claimed) {
        fs.rmSync(f, { force: true });
        openHere.delete(f);
      }
    },
  };
}
