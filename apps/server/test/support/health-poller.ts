/**
 * Watches /healthz while a test does something hostile: the server must keep answering. Shared by the gateway
 * security and file-extraction tests.
 */
import http from "node:http";
import os from "node:os";

/**
 * The latency /healthz must stay under. On a machine whose run queue is longer than its core count (the server
 * suite runs two files at once, other suites or a benchmark may run beside it) the process itself waits for a CPU,
 * which no server code can prevent: a run at 3.7 per 2 cores measured a 124 ms maximum with a 1.5 ms median, one
 * at 5.0 a single 603 ms stall with a 1.6 ms median. The bound then allows for that wait (4 × the load per core,
 * up to 2 s). What catches a server that really blocks is the median the callers also assert: a loop busy with
 * counting or extraction would delay most polls, not one.
 */
export function healthBound(): number {
  const load = os.loadavg()[0]! / os.availableParallelism();
  // Continuous in the load: a step from 100 to 400 ms at exactly one per core failed a run that measured 101 ms at
  // a load of 2.1 on 2 cores (the average moved across the step between the test's poll and its check).
  return 100 * Math.min(Math.max(1, 4 * load), 20);
}

/** Polls /healthz on `port` back to back over one keep-alive connection until stopped; returns every latency in ms. */
export function pollHealth(port: number) {
  const latencies: number[] = [];
  let running = true;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const t0 = performance.now();
      http
        .get({ host: "127.0.0.1", port, path: "/healthz", agent }, (res) => {
          res.resume();
          res.on("end", () => {
            latencies.push(performance.now() - t0);
            resolve();
          });
        })
        .on("error", reject);
    });
  const loop = (async () => {
    while (running) {
      await once();
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return latencies;
    },
  };
}
