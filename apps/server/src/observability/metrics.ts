/**
 * Prometheus metrics (prom-client). The request path only bumps numbers in structures allocated ahead of time
 * (per-route cells, fixed bucket arrays): prom-client's own observe() builds a label object, a hash string and a
 * closure per call, which the gateway's per-request CPU budget cannot afford. The registry reads those numbers
 * when scraped (`collect` callbacks and HotHistogram.get), so a scrape costs what it costs and a request does not.
 *
 * Label values come from small fixed sets only: route patterns (not URLs), HTTP methods, status codes, catalog
 * model ids (anything else is "other"), refusal kinds, job names registered in jobs/register-jobs.ts.
 */
import { MODELS } from "@moonport/contracts";
import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from "prom-client";

const MODEL_IDS = new Set(MODELS.map((m) => m.id));

/** A label for a client-supplied model id: a catalog id, "" when absent, otherwise "other" (bounded cardinality). */
export function modelLabel(body: unknown): string {
  if (body === null || typeof body !== "object") return "";
  const model = (body as { model?: unknown }).model;
  if (typeof model !== "string") return "";
  return MODEL_IDS.has(model) ? model : "other";
}

/** Seconds; gateway overhead is sub-millisecond when healthy, upstream waits run to minutes. */
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const LAG_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const JOB_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60, 300, 1800];
/** Whole requests, from a static file to a five-minute completion. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** Tokens of settled chat completions per model: prompt, completion and cached (part of prompt). */
interface TokenCounts {
  prompt: number;
  completion: number;
  cached: number;
}

/** One histogram's numbers in a Float64Array; `observe` allocates nothing. */
class HistogramCell {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(size: number) {
    this.counts = new Float64Array(size);
  }

  observe(bounds: readonly number[], value: number) {
    if (!(value >= 0)) return; // NaN and negatives (clock steps) are dropped, not thrown
    this.sum += value;
    this.count++;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= (bounds[i] as number)) {
        (this.counts as Float64Array)[i]!++;
        return;
      }
    }
  }
}

type ExpositionValue = { labels: Record<string, string | number>; value: number; metricName: string };

/** A cell's bucket, sum and count samples in prom-client's shape, with the cell's labels. */
function cellValues(
  name: string,
  bounds: readonly number[],
  labels: Record<string, string>,
  cell: HistogramCell,
  out: ExpositionValue[],
) {
  let cumulative = 0;
  for (let i = 0; i < bounds.length; i++) {
    cumulative += cell.counts[i] as number;
    out.push({ labels: { ...labels, le: bounds[i] as number }, value: cumulative, metricName: `${name}_bucket` });
  }
  out.push({ labels: { ...labels, le: "+Inf" }, value: cell.count, metricName: `${name}_bucket` });
  out.push({ labels, value: cell.sum, metricName: `${name}_sum` });
  out.push({ labels, value: cell.count, metricName: `${name}_count` });
}

/**
 * A histogram registered in prom-client's registry as a metric object whose get() returns the exposition values
 * in prom-client's own shape, read from cells that `observe` fills without allocating.
 */
abstract class HotMetric {
  readonly type = "histogram";
  readonly aggregator = "sum";
  constructor(
    readonly name: string,
    readonly help: string,
    protected readonly bounds: number[],
  ) {}

  protected abstract values(out: ExpositionValue[]): void;

  async get() {
    const values: ExpositionValue[] = [];
    this.values(values);
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** An unlabelled histogram. */
class HotHistogram extends HotMetric {
  private readonly cell = new HistogramCell(this.bounds.length);

  observe(value: number) {
    this.cell.observe(this.bounds, value);
  }

  protected values(out: ExpositionValue[]) {
    cellValues(this.name, this.bounds, {}, this.cell, out);
  }
}

/**
 * A histogram by model (a `modelLabel`) and mode (`stream` or `json`): a cell pair per model, made on the
 * model's first request; no label object or key string per observation.
 */
class ModelHistogram extends HotMetric {
  private readonly byModel = new Map<string, [HistogramCell, HistogramCell]>();

  observe(model: string, stream: boolean, value: number) {
    let pair = this.byModel.get(model);
    if (!pair) {
      pair = [new HistogramCell(this.bounds.length), new HistogramCell(this.bounds.length)];
      this.byModel.set(model, pair);
    }
    pair[stream ? 1 : 0].observe(this.bounds, value);
  }

  protected values(out: ExpositionValue[]) {
    for (const [model, pair] of this.byModel) {
      for (const [i, cell] of pair.entries()) {
        if (cell.count > 0) cellValues(this.name, this.bounds, { model, mode: i ? "stream" : "json" }, cell, out);
      }
    }
  }
}

/**
 * Request counts of one route: model → status → count, and durations by status. Filled on first use of each
 * pair, then only bumped.
 */
class RouteCells {
  readonly byModel = new Map<string, Map<number, { n: number }>>();
  readonly durations = new Map<number, HistogramCell>();
  constructor(
    readonly route: string,
    readonly method: string,
  ) {}

  /** `seconds` from the request's arrival to its response's end; negative when unknown (not recorded). */
  timed(status: number, seconds: number) {
    if (seconds < 0) return;
    let cell = this.durations.get(status);
    if (!cell) {
      cell = new HistogramCell(DURATION_BUCKETS.length);
      this.durations.set(status, cell);
    }
    cell.observe(DURATION_BUCKETS, seconds);
  }

  bump(model: string, status: number) {
    let byStatus = this.byModel.get(model);
    if (!byStatus) {
      byStatus = new Map();
      this.byModel.set(model, byStatus);
    }
    const cell = byStatus.get(status);
    if (cell) cell.n++;
    else byStatus.set(status, { n: 1 });
  }
}

/** What the gauges read at scrape time (set by buildApp once the gateway exists). */
interface GatewayGaugeSource {
  /** Bills settled on this instance waiting for the bill writer's next commit. */
  billQueueDepth(): number;
  /** Journaled bills of this instance not yet committed to the database. */
  journalBacklog(): number;
  /** Streams between admission and settlement on this instance. */
  openStreams(): number;
  /** With Redis: admissions from a rate-limit allowance (in memory) and by the per-request script. */
  limitAdmissions(): { allowance: number; script: number };
}

export const REFUSAL_KINDS = [
  "concurrency",
  "rpm",
  "tpm",
  "tpd",
  "balance",
  "daily_budget",
  "monthly_budget",
  "project_archived",
] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];

export class Metrics {
  readonly registry = new Registry();
  readonly gatewayOverhead = new ModelHistogram(
    "moonport_gateway_overhead_seconds",
    "Time a /v1 request spent in the gateway itself (the whole request minus engine time; streams: until the headers), by model and mode (json or stream)",
    OVERHEAD_BUCKETS,
  );
  readonly upstreamLatency = new ModelHistogram(
    "moonport_gateway_upstream_seconds",
    "Time a chat completion waited for its engine (simulator or upstream) before the response head: the whole answer for JSON, the first event for streams; by model and mode",
    UPSTREAM_BUCKETS,
  );
  private readonly tokens = new Map<string, TokenCounts>();
  readonly commitLag = new HotHistogram(
    "moonport_bill_commit_lag_seconds",
    "Time from a bill's settlement to its commit in the database",
    LAG_BUCKETS,
  );
  readonly jobDuration = new HotHistogram("moonport_job_duration_seconds", "Run time of background jobs", JOB_BUCKETS);
  private readonly routes: RouteCells[] = [];
  private readonly refusals = new Map<RefusalKind, number>(REFUSAL_KINDS.map((k) => [k, 0]));
  private readonly jobs = new Map<string, { runs: number; failures: number }>();
  private gateway: GatewayGaugeSource | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: "moonport_" });
    for (const h of [this.gatewayOverhead, this.upstreamLatency, this.commitLag, this.jobDuration]) {
      this.registry.registerMetric(h as unknown as Metric);
    }
    const routes = this.routes;
    new Counter({
      name: "moonport_http_requests_total",
      help: "HTTP requests answered, by route pattern, method, model (catalog id, other, or empty) and status",
      labelNames: ["route", "method", "model", "status"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of routes) {
          for (const [model, byStatus] of r.byModel) {
            for (const [status, cell] of byStatus) {
              this.inc({ route: r.route, method: r.method, model, status }, cell.n);
            }
          }
        }
      },
    });
    const durations = new (class extends HotMetric {
      protected values(out: ExpositionValue[]) {
        for (const r of routes) {
          for (const [status, cell] of r.durations) {
            cellValues(this.name, this.bounds, { route: r.route, method: r.method, status: String(status) }, cell, out);
          }
        }
      }
    })(
      "moonport_http_request_duration_seconds",
      "Time from a request's arrival to the end of its response, by route pattern, method and status",
      DURATION_BUCKETS,
    );
    this.registry.registerMetric(durations as unknown as Metric);
    const tokens = this.tokens;
    new Counter({
      name: "moonport_gateway_tokens_total",
      help: "Tokens of settled chat completions (API and playground), by billed model and kind: prompt, completion, cached (the part of prompt served from a cache)",
      labelNames: ["model", "kind"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [model, t] of tokens) {
          this.inc({ model, kind: "prompt" }, t.prompt);
          this.inc({ model, kind: "completion" }, t.completion);
          this.inc({ model, kind: "cached" }, t.cached);
        }
      },
    });
    const refusals = this.refusals;
    new Counter({
      name: "moonport_gateway_refusals_total",
      help: "Gateway admissions refused, by kind (rate limits, balance, budgets, archived project)",
      labelNames: ["kind"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [kind, n] of refusals) this.inc({ kind }, n);
      },
    });
    const jobs = this.jobs;
    new Counter({
      name: "moonport_job_runs_total",
      help: "Background job runs, by job name",
      labelNames: ["name"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [name, j] of jobs) this.inc({ name }, j.runs);
      },
    });
    new Counter({
      name: "moonport_job_failures_total",
      help: "Background job runs that failed (each retry counts), by job name",
      labelNames: ["name"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [name, j] of jobs) this.inc({ name }, j.failures);
      },
    });
    const source = () => this.gateway;
    new Counter({
      name: "moonport_gateway_limit_admissions_total",
      help: "Rate-limit admissions with Redis, by path: allowance (headroom taken ahead, no round trip) or script",
      labelNames: ["path"],
      registers: [this.registry],
      collect() {
        this.reset();
        const counts = source()?.limitAdmissions() ?? { allowance: 0, script: 0 };
        this.inc({ path: "allowance" }, counts.allowance);
        this.inc({ path: "script" }, counts.script);
      },
    });
    const gauge = (name: string, help: string, read: (s: GatewayGaugeSource) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const s = source();
          this.set(s ? read(s) : 0);
        },
      });
    gauge(
      "moonport_bill_queue_depth",
      "Bills settled on this instance waiting for the bill writer's next commit",
      (s) => s.billQueueDepth(),
    );
    gauge("moonport_journal_backlog", "Bills in this instance's journal not yet committed to the database", (s) =>
      s.journalBacklog(),
    );
    gauge("moonport_gateway_open_streams", "Streaming chat completions in progress on this instance", (s) =>
      s.openStreams(),
    );
  }

  /** The per-route cells an onResponse hook bumps; one per registered route and method. */
  routeCells(route: string, method: string): RouteCells {
    const cells = new RouteCells(route, method);
    this.routes.push(cells);
    return cells;
  }

  watchGateway(source: GatewayGaugeSource) {
    this.gateway = source;
  }

  /** A settled chat completion's usage; `model` is a catalog id (the billed model). */
  tokensUsed(model: string, usage: { promptTokens: number; completionTokens: number; cachedTokens: number }) {
    let t = this.tokens.get(model);
    if (!t) {
      t = { prompt: 0, completion: 0, cached: 0 };
      this.tokens.set(model, t);
    }
    t.prompt += usage.promptTokens;
    t.completion += usage.completionTokens;
    t.cached += usage.cachedTokens;
  }

  refused(kind: RefusalKind) {
    this.refusals.set(kind, (this.refusals.get(kind) ?? 0) + 1);
  }

  jobRan(name: string, seconds: number, failed: boolean) {
    let j = this.jobs.get(name);
    if (!j) {
      j = { runs: 0, failures: 0 };
      this.jobs.set(name, j);
    }
    j.runs++;
    if (failed) j.failures++;
    this.jobDuration.observe(seconds);
  }

  /**
   * Commit lag of a committed batch: from each bill's settlement (`createdAt`, ms since the epoch) to now. Bills
   * replayed from another instance's journal (`local: false`) are left out: their lag is the outage, not the writer.
   */
  billsCommitted(items: readonly { local: boolean; entry: { createdAt: number } }[], now = Date.now()) {
    for (const i of items) if (i.local) this.commitLag.observe((now - i.entry.createdAt) / 1000);
  }

  /** The Prometheus text exposition. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
