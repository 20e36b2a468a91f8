/**
 * The real server (or CLI) as a child process, for tests of what only a process shows: graceful shutdown,
 * `kill -9`, restarts on the same data. Each process gets the DATA_DIR it is given; the test run's own
 * DATABASE_URL and REDIS_URL never leak into it (pass them in `env` to share a database on purpose).
 */
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const running = new Set<ChildProcess>();

/** Kills every process still running (afterAll). */
export function killAll() {
  for (const p of running) p.kill("SIGKILL");
}

/** Whether something accepts TCP connections on the port (the server's listener is open). */
export function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface Proc {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exited: Promise<number | null>;
  waitForLine(pred: (line: string) => boolean, timeoutMs?: number): Promise<string>;
}

export function run(script: string, args: string[], env: Record<string, string> & { DATA_DIR: string }): Proc {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // The spawned process must use its own PGlite directory, never a database or Redis of the test run.
    if (v !== undefined && !["DATABASE_URL", "REDIS_URL", "NODE_OPTIONS", "VITEST"].includes(k)) childEnv[k] = v;
  }
  const child = spawn(process.execPath, ["--import", "./scripts/ts-register.mjs", script, ...args], {
    cwd: ROOT,
    env: { ...childEnv, SERVE_WEB: "false", LOG_LEVEL: "info", NODE_ENV: "test", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.add(child);
  const lines: string[] = [];
  let err = "";
  const waiters: { pred: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  let buf = "";
  child.stdout!.on("data", (d: Buffer) => {
    buf += d.toString();
    let i = buf.indexOf("\n");
    while (i !== -1) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
      i = buf.indexOf("\n");
    }
  });
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    waitForLine(pred, timeoutMs = 60_000) {
      const found = lines.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for a log line; stderr:\n${err}\nstdout:\n${lines.join("\n")}`)),
          timeoutMs,
        );
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
  };
}

export async function startServer(port: number, env: Record<string, string> & { DATA_DIR: string }): Promise<Proc> {
  const p = run("apps/server/src/main.ts", [], { PORT: String(port), HOST: "127.0.0.1", ...env });
  await Promise.race([
    p.waitForLine((l) => l.includes("Server listening"), 90_000),
    p.exited.then((code) => {
      throw new Error(`server exited early (${code}): ${p.stderr()}`);
    }),
  ]);
  return p;
}

/** A tiny browser: CSRF cookie first, then same-origin JSON requests with the token header. */
export async function session(port: number, locale?: "zh-CN" | "en-US") {
  const base = `http://127.0.0.1:${port}`;
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [k, v] = pair!.split("=");
      jar.set(k!, v ?? "");
    }
  };
  keep(await fetch(`${base}/healthz`));
  const headers = () => ({
    origin: base,
    "content-type": "application/json",
    "x-csrf-token": jar.get("mp_csrf") ?? "",
    ...(locale ? { "accept-language": locale } : {}),
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
  });
  return {
    headers,
    async request(method: "GET" | "POST" | "PUT", url: string, body?: unknown) {
      const res = await fetch(base + url, {
        method,
        headers: headers(),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      keep(res);
      return { status: res.status, body: await res.json() };
    },
    post(url: string, body: unknown) {
      return this.request("POST", url, body);
    },
  };
}
