import fs from "node:fs";
import path from "node:path";

/** PGlite is single-process: a second process opening the same directory would corrupt it, so we refuse. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
    readonly owner: string,
  ) {
    super(
      `The data directory ${dir} is in use by process ${pid} (${owner}). ` +
        "PGlite allows one process at a time: stop that process first, or set DATABASE_URL to use PostgreSQL.",
    );
    this.name = "DataDirLockedError";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws DataDirLockedError; a lock left by a dead process is taken over. */
export function acquireDataDirLock(dir: string, owner: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "moonport.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, "wx");
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, owner, since: new Date().toISOString() }));
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          const held = JSON.parse(fs.readFileSync(file, "utf8")) as { pid: number };
          if (held.pid === process.pid) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      let held: { pid?: number; owner?: string } = {};
      try {
        held = JSON.parse(fs.readFileSync(file, "utf8"));
      } catch {
        /* a torn write: treat as stale */
      }
      if (held.pid && held.pid !== process.pid && alive(held.pid)) {
        throw new DataDirLockedError(dir, held.pid, held.owner ?? "unknown");
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${dir}`);
}
