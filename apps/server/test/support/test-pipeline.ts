/**
 * An in-memory GatewayPipeline for gateway tests: keys registered here authenticate, admission can be told to
 * refuse (to exercise 403/429 paths), and every settlement is recorded for assertions. The production pipeline
 * (database-backed keys, limits, metering) has its own tests.
 */
import { type Db, randomString } from "@moonport/db";
import { type GatewayError, gatewayErrors } from "../../src/chat/errors.ts";
import type {
  Admission,
  AdmitRequest,
  GatewayPipeline,
  KeyIdentity,
  SettleRequest,
} from "../../src/metering/pipeline.ts";
import { getOrganizationBalance, type OrgBalance } from "../../src/modules/billing/index.ts";

const KEY = /^Bearer\s+(sk-[0-9A-Za-z]{40,})$/;

export class TestPipeline implements GatewayPipeline {
  readonly keys = new Map<string, { identity: KeyIdentity; refuse?: () => GatewayError }>();
  private readonly byKeyId = new Map<string, { identity: KeyIdentity; refuse?: () => GatewayError }>();
  readonly admitted: AdmitRequest[] = [];
  readonly settled: SettleRequest[] = [];
  inFlight = 0;
  settledCount = 0;
  private settleWaiters: (() => void)[] = [];

  private db: Db | undefined;

  /** `record: false` keeps only counts (the benchmark sends millions of requests). */
  constructor(private readonly opts: { record?: boolean } = {}) {}

  /** Gives balance() a database to read; pass `(ctx) => pipeline.withDb(ctx.db)` to createTestApp. */
  withDb(db: Db): this {
    this.db = db;
    return this;
  }

  async balance(orgId: string): Promise<OrgBalance | null> {
    if (!this.db) throw new Error("TestPipeline.balance needs withDb(db)");
    return getOrganizationBalance({ db: this.db, orgId });
  }

  /** Registers a key; `refuse` makes admission fail with that error (e.g. a 429 rate limit). */
  addKey(opts: { orgId?: string; projectId?: string; currency?: "CNY" | "USD"; refuse?: () => GatewayError } = {}) {
    const key = `sk-${randomString(48)}`;
    const identity: KeyIdentity = {
      keyId: `key_${randomString(12, "abcdefghijklmnopqrstuvwxyz0123456789")}`,
      orgId: opts.orgId ?? "org_test",
      projectId: opts.projectId ?? "proj_test",
      currency: opts.currency ?? "CNY",
    };
    this.keys.set(key, { identity, refuse: opts.refuse });
    this.byKeyId.set(identity.keyId, { identity, refuse: opts.refuse });
    return { key, identity };
  }

  async authenticate(authorization: string | undefined): Promise<KeyIdentity> {
    if (!authorization) throw gatewayErrors.invalidAuthentication();
    const m = KEY.exec(authorization.trim());
    const entry = m ? this.keys.get(m[1]!) : undefined;
    if (!entry) throw gatewayErrors.incorrectApiKey();
    return entry.identity;
  }

  async admit(req: AdmitRequest): Promise<Admission> {
    const entry = this.byKeyId.get(req.key.keyId);
    if (entry?.refuse) throw entry.refuse();
    if (this.opts.record !== false) this.admitted.push(req);
    this.inFlight++;
    let released = false;
    return {
      requestId: req.requestId,
      key: req.key,
      model: req.model,
      startedAt: Date.now(),
      headers: { "x-ratelimit-limit-requests": "200", "x-ratelimit-remaining-requests": "199" },
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
      },
    };
  }

  async settle(req: SettleRequest): Promise<void> {
    this.settledCount++;
    if (this.opts.record !== false) this.settled.push(req);
    for (const w of this.settleWaiters.splice(0)) w();
  }

  /** Resolves once `count` settlements have been recorded (settlement follows the response). */
  async waitForSettled(count: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.settled.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} settlements, got ${this.settled.length}`);
      await new Promise<void>((resolve) => {
        this.settleWaiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }
}
