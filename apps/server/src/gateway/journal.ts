/**
 * The bill journal: an append-only file per gateway instance, written and fdatasync'd before a bill counts as
 * recorded. Appends arriving while a write is in flight are grouped into the next write (group commit), so one
 * fsync covers many requests. The bill writer commits journaled bills to the database in batches; a process that
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

export class BillJournal {
  private buffer: string[] = [];
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private writing: Promise<void> | null = null;
  /** Appended (or being appended) and not yet committed to the database. */
  private pending = 0;
  private bytes = 0;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly fd: number,
  ) {}

  static open(dir: string, instanceId: string): BillJournal {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `bills-${HOST}-${process.pid}-${instanceId}.jsonl`);
    const fd = fs.openSync(file, "a");
    openHere.add(file);
    return new BillJournal(file, fd);
  }

  /** Resolves once the entry is on disk. */
  append(entry: JournalEntry): Promise<void> {
    if (this.closed) return Promise.reject(new Error("bill journal is closed"));
    this.pending++;
    this.buffer.push(`${JSON.stringify(entry)}\n`);
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.writing) this.writing = this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.buffer.length) {
      const chunk = this.buffer.join("");
      const waiters = this.waiters;
      this.buffer = [];
      this.waiters = [];
      try {
        const data = Buffer.from(chunk);
        await new Promise<void>((resolve, reject) =>
          fs.write(this.fd, data, 0, data.length, null, (err) => (err ? reject(err) : resolve())),
        );
        await new Promise<void>((resolve, reject) => fs.fdatasync(this.fd, (err) => (err ? reject(err) : resolve())));
        this.bytes += data.length;
        for (const w of waiters) w.resolve();
      } catch (e) {
        for (const w of waiters) w.reject(e);
      }
    }
    this.writing = null;
  }

  /** `n` journaled entries are now in the database. With nothing outstanding, a large file is emptied. */
  committed(n: number) {
    this.pending -= n;
    if (this.pending === 0 && !this.writing && this.bytes > TRUNCATE_AT) {
      fs.ftruncateSync(this.fd, 0);
      this.bytes = 0;
    }
  }

  get outstanding() {
    return this.pending;
  }

  /** Clean shutdown: everything committed → the file goes; otherwise it stays for the next start to replay. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.writing) await this.writing;
    fs.closeSync(this.fd);
    openHere.delete(this.file);
    if (this.pending === 0) fs.rmSync(this.file, { force: true });
  }

  /** What a crash leaves: the file as it is on disk. Tests use it to simulate one. */
  abandon() {
    this.closed = true;
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
): { entries: JournalEntry[]; files: string[]; done: () => void } {
  if (!fs.existsSync(dir)) return { entries: [], files: [], done: () => {} };
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
  for (const file of claimed) {
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch {
        // A torn last line: its append never resolved, so that request was never reported as recorded.
      }
    }
  }
  return {
    entries,
    files: claimed,
    done: () => {
      for (const f of claimed) {
        fs.rmSync(f, { force: true });
        openHere.delete(f);
      }
    },
  };
}
