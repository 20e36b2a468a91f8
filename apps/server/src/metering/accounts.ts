/**
 * In-memory view of what admission needs: each organization's available balance and tier inputs, each project's
 * status, budgets, TPM cap and spend in the current day and month. A view is loaded from the database on first
 * use, then refreshed in the background at most once per REFRESH_MS while it is being used (stale-while-
 * revalidate), so admission does not wait on the database once warm.
 *
 *   available = cash + unexpired voucher remaining (database snapshot) − charges settled here but not committed
 *
 * When the bill writer commits a batch it applies the same deltas to the snapshot, so this instance's view stays
 * exact between refreshes; other instances' charges arrive with the next refresh. Loads, refreshes and the
 * writer's commit-and-apply take turns on one lock, so a snapshot never misses or double-counts a commit.
 */
import { EDITION_TIME_ZONE, type Edition, type RateLimitOverride } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { and, eq, gte, sql } from "drizzle-orm";
import { periodStarts } from "../lib/edition-time.ts";
import { balanceColumnsSql } from "../modules/billing/index.ts";
import type { Mutex } from "./mutex.ts";

export const REFRESH_MS = 1000;

interface OrgView {
  orgId: string;
  edition: Edition;
  cash: bigint;
  voucher: bigint;
  cumulativeRecharge: bigint;
  tierOverride: number | null;
  tierFloor: number | null;
  rateLimitOverride: RateLimitOverride | null;
  /** Suspended by an operator: every request is refused. */
  suspended: boolean;
  /** Settled on this instance, not yet committed to the database. */
  uncommitted: bigint;
  loadedAt: number;
  refreshing?: Promise<void>;
}

interface ProjectView {
  projectId: string;
  orgId: string;
  status: "active" | "archived";
  dailyBudget: number | null;
  monthlyBudget: number | null;
  tpmLimit: number | null;
  timeZone: string;
  dayStart: number;
  monthStart: number;
  nextDay: number;
  /** Committed consumption since dayStart / monthStart (only loaded when the project has a budget). */
  daySpent: bigint;
  monthSpent: bigint;
  uncommitted: bigint;
  loadedAt: number;
  refreshing?: Promise<void>;
}

export interface CommittedCharge {
  orgId: string;
  projectId: string;
  /** Total of the entry's lines. */
  amount: bigint;
  cash: bigint;
  voucher: bigint;
  createdAt: number;
  /** False when the bill was already in the database (a replay): the snapshot must be reloaded instead. */
  applied: boolean;
  /** Whether this instance counted it in `uncommitted`. */
  local: boolean;
}

export class Accounts {
  private readonly orgs = new Map<string, OrgView>();
  private readonly projects = new Map<string, ProjectView>();
  private readonly loadingOrgs = new Map<string, Promise<OrgView>>();
  private readonly loadingProjects = new Map<string, Promise<ProjectView>>();

  constructor(
    private readonly db: Db,
    private readonly lock: Mutex,
    private readonly onError: (err: unknown) => void,
  ) {}

  /**
   * The organization's view if a decision may use it now (a stale one starts its background refresh), else
   * undefined and the caller awaits `org`. Admission's warm path takes no promise: a promise per request is measurable
   * CPU on /v1.
   */
  orgIfReady(orgId: string): OrgView | undefined {
    const view = this.orgs.get(orgId);
    if (!view) return undefined;
    if (Date.now() - view.loadedAt > REFRESH_MS && !view.refreshing)
      this.refreshInBackground(view, () => this.refreshOrg(view));
    // Evicted (a recharge or status change in the console): the next decision waits for the database.
    return view.loadedAt === 0 && view.refreshing ? undefined : view;
  }

  /** Starts `refresh` of a view that decisions keep using meanwhile; `view.refreshing` is set until it ends. */
  private refreshInBackground(view: { refreshing?: Promise<void> }, refresh: () => Promise<void>) {
    view.refreshing = refresh()
      .catch(this.onError)
      .finally(() => {
        view.refreshing = undefined;
      });
  }

  async org(orgId: string): Promise<OrgView> {
    const ready = this.orgIfReady(orgId);
    if (ready) return ready;
    const view = this.orgs.get(orgId);
    if (view) {
      await view.refreshing;
      return view;
    }
    let pending = this.loadingOrgs.get(orgId);
    if (!pending) {
      pending = this.loadOrg(orgId).finally(() => this.loadingOrgs.delete(orgId));
      this.loadingOrgs.set(orgId, pending);
    }
    return pending;
  }

  /** The project's view if a decision may use it now, as orgIfReady. */
  projectIfReady(projectId: string): ProjectView | undefined {
    const view = this.projects.get(projectId);
    if (!view) return undefined;
    const now = Date.now();
    if ((now - view.loadedAt > REFRESH_MS || now >= view.nextDay) && !view.refreshing) {
      this.refreshInBackground(view, () => this.refreshProject(view));
    }
    // A new day must not be judged by yesterday's spend: wait for the refresh at the boundary.
    return (now >= view.nextDay || view.loadedAt === 0) && view.refreshing ? undefined : view;
  }

  async project(projectId: string): Promise<ProjectView> {
    const ready = this.projectIfReady(projectId);
    if (ready) return ready;
    const view = this.projects.get(projectId);
    if (view) {
      await view.refreshing;
      return view;
    }
    let pending = this.loadingProjects.get(projectId);
    if (!pending) {
      pending = this.loadProject(projectId).finally(() => this.loadingProjects.delete(projectId));
      this.loadingProjects.set(projectId, pending);
    }
    return pending;
  }

  available(view: OrgView): bigint {
    return view.cash + view.voucher - view.uncommitted;
  }

  /** Spend counted against the project's budgets: committed in the period plus what is settling here. */
  spent(view: ProjectView): { day: bigint; month: bigint } {
    return { day: view.daySpent + view.uncommitted, month: view.monthSpent + view.uncommitted };
  }

  /** A request was settled here: count it before the database has it. */
  addUncommitted(orgId: string, projectId: string, amount: bigint) {
    const org = this.orgs.get(orgId);
    if (org) org.uncommitted += amount;
    const project = this.projects.get(projectId);
    if (project) project.uncommitted += amount;
  }

  /** The bill writer committed these charges; it calls this while holding the lock. */
  applyCommitted(charges: CommittedCharge[]) {
    for (const c of charges) {
      const org = this.orgs.get(c.orgId);
      if (org) {
        if (c.local) org.uncommitted -= c.amount;
        if (c.applied) {
          org.cash -= c.cash;
          org.voucher -= c.voucher;
        } else {
          org.loadedAt = 0;
        }
      }
      const project = this.projects.get(c.projectId);
      if (project) {
        if (c.local) project.uncommitted -= c.amount;
        if (c.applied) {
          if (c.createdAt >= project.dayStart) project.daySpent += c.amount;
          if (c.createdAt >= project.monthStart) project.monthSpent += c.amount;
        } else {
          project.loadedAt = 0;
        }
      }
    }
  }

  /** Forget cached views (a recharge, budget or status change made in the console). */
  evict(target: { orgId?: string; projectId?: string } | "all") {
    if (target === "all") {
      for (const v of this.orgs.values()) v.loadedAt = 0;
      for (const v of this.projects.values()) v.loadedAt = 0;
      return;
    }
    // Views hold `uncommitted`, which must survive: mark stale and reload synchronously on next use.
    if (target.orgId) {
      const v = this.orgs.get(target.orgId);
      if (v) v.loadedAt = 0;
      for (const p of this.projects.values()) if (p.orgId === target.orgId) p.loadedAt = 0;
    }
    if (target.projectId) {
      const v = this.projects.get(target.projectId);
      if (v) v.loadedAt = 0;
    }
  }

  /** Wait for the freshest view (used right after an eviction, and by tests). */
  async fresh(orgId: string, projectId: string) {
    const org = await this.org(orgId);
    if (org.refreshing) await org.refreshing;
    else if (org.loadedAt === 0) await this.refreshOrg(org);
    const project = await this.project(projectId);
    if (project.refreshing) await project.refreshing;
    else if (project.loadedAt === 0) await this.refreshProject(project);
  }

  private async readOrg(orgId: string) {
    const [org] = await this.db
      .select({
        edition: schema.organizations.edition,
        ...balanceColumnsSql(orgId),
        tierOverride: schema.organizations.tierOverride,
        tierFloor: schema.organizations.tierFloor,
        rateLimitOverride: schema.organizations.rateLimitOverride,
        suspendedAt: schema.organizations.suspendedAt,
      })
      .from(schema.organizations)
      .where(eq(schema.organizations.id, orgId));
    if (!org) throw new Error(`organization ${orgId} not found`);
    const { suspendedAt, ...rest } = org;
    return { ...rest, suspended: suspendedAt !== null };
  }

  private loadOrg(orgId: string): Promise<OrgView> {
    return this.lock.run(async () => {
      const existing = this.orgs.get(orgId);
      if (existing) return existing;
      const row = await this.readOrg(orgId);
      const view: OrgView = { orgId, ...row, uncommitted: 0n, loadedAt: Date.now() };
      this.orgs.set(orgId, view);
      return view;
    });
  }

  private refreshOrg(view: OrgView): Promise<void> {
    return this.lock.run(async () => {
      const started = Date.now();
      const row = await this.readOrg(view.orgId);
      view.edition = row.edition;
      view.cash = row.cash;
      view.voucher = row.voucher;
      view.cumulativeRecharge = row.cumulativeRecharge;
      view.tierOverride = row.tierOverride;
      view.tierFloor = row.tierFloor;
      view.rateLimitOverride = row.rateLimitOverride;
      view.suspended = row.suspended;
      view.loadedAt = started;
    });
  }

  private async readProject(projectId: string, now: number) {
    const [p] = await this.db
      .select({
        orgId: schema.projects.orgId,
        status: schema.projects.status,
        dailyBudget: schema.projects.dailyBudget,
        monthlyBudget: schema.projects.monthlyBudget,
        tpmLimit: schema.projects.tpmLimit,
        edition: schema.organizations.edition,
      })
      .from(schema.projects)
      .innerJoin(schema.organizations, eq(schema.organizations.id, schema.projects.orgId))
      .where(eq(schema.projects.id, projectId));
    if (!p) throw new Error(`project ${projectId} not found`);
    const timeZone = EDITION_TIME_ZONE[p.edition];
    const periods = periodStarts(now, timeZone);
    let daySpent = 0n;
    let monthSpent = 0n;
    if (p.dailyBudget !== null || p.monthlyBudget !== null) {
      // At most 31 rows (project_spend_days), whatever the project's traffic.
      const [s] = await this.db
        .select({
          day: sql<string>`coalesce(sum(${schema.projectSpendDays.consumption}) filter (where ${schema.projectSpendDays.day} >= ${periods.date}), 0)`,
          month: sql<string>`coalesce(sum(${schema.projectSpendDays.consumption}), 0)`,
        })
        .from(schema.projectSpendDays)
        .where(
          and(eq(schema.projectSpendDays.projectId, projectId), gte(schema.projectSpendDays.day, periods.monthDate)),
        );
      daySpent = BigInt(s?.day ?? 0);
      monthSpent = BigInt(s?.month ?? 0);
    }
    return {
      orgId: p.orgId,
      status: p.status,
      dailyBudget: p.dailyBudget,
      monthlyBudget: p.monthlyBudget,
      tpmLimit: p.tpmLimit,
      timeZone,
      dayStart: periods.day,
      monthStart: periods.month,
      nextDay: periods.nextDay,
      daySpent,
      monthSpent,
    };
  }

  private loadProject(projectId: string): Promise<ProjectView> {
    return this.lock.run(async () => {
      const existing = this.projects.get(projectId);
      if (existing) return existing;
      const now = Date.now();
      const row = await this.readProject(projectId, now);
      const view: ProjectView = { projectId, ...row, uncommitted: 0n, loadedAt: now };
      this.projects.set(projectId, view);
      return view;
    });
  }

  private refreshProject(view: ProjectView): Promise<void> {
    return this.lock.run(async () => {
      const now = Date.now();
      const row = await this.readProject(view.projectId, now);
      Object.assign(view, row, { loadedAt: now });
    });
  }
}
