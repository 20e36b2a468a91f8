/**
 * Who may use the tool sandboxes, and in which order. The machine runs a few QuickJS sandboxes at once; every call
 * beyond that waits in its organization's queue, and a free sandbox goes to the organizations in turn
 * (round-robin: the waiting organization served longest ago goes first), not to whoever queued first. One organization also holds at most `maxRunningPerOrg` of the
 * sandboxes, so another organization's call starts at once while the first floods, and has at most
 * `maxPendingPerOrg` calls running or waiting (a user, `maxPendingPerUser`): beyond that a call is refused at once
 * instead of queueing behind its own organization's flood. See README.md beside this file.
 */
export interface SandboxQuota {
  /** Sandboxes running at once on this server. */
  maxRunning: number;
  /** Sandboxes one organization runs at once (at most `maxRunning`). */
  maxRunningPerOrg: number;
  /** Calls one organization has running or waiting. */
  maxPendingPerOrg: number;
  /** Calls one user has running or waiting. */
  maxPendingPerUser: number;
  /** Calls waiting on this server, all organizations together. */
  maxQueued: number;
}

/** Whose call it is: the organization always, the user when a person (not an API key) asked for it. */
export interface SandboxOwner {
  orgId: string;
  userId?: string;
}

/** Which cap refused a call. */
export type SandboxBusyScope = "org" | "user" | "server";

export class SandboxBusy extends Error {
  constructor(readonly scope: SandboxBusyScope) {
    super(`tool sandboxes busy (${scope})`);
    this.name = "SandboxBusy";
  }
}

export interface SandboxScheduler {
  /** Runs `fn` when the owner's turn comes; rejects with SandboxBusy at once when a cap is reached. */
  run<T>(owner: SandboxOwner, fn: () => Promise<T>): Promise<T>;
  /** Counts for tests and metrics. */
  stats(): { running: number; queued: number };
}

export function createSandboxScheduler(quota: SandboxQuota): SandboxScheduler {
  let running = 0;
  let queued = 0;
  const runningByOrg = new Map<string, number>();
  const pendingByOrg = new Map<string, number>();
  const pendingByUser = new Map<string, number>();
  /** Per organization, the start signals of its waiting calls in arrival order. */
  const queues = new Map<string, (() => void)[]>();
  // When each organization with calls pending was last given a sandbox (a counter, not a clock): the free sandbox
  // goes to the waiting organization served longest ago, so one that queued many calls early gets them one turn at
  // a time between the others'. Forgotten once the organization has nothing pending.
  const lastServed = new Map<string, number>();
  let turns = 0;

  const add = (m: Map<string, number>, key: string, n: number) => {
    const v = (m.get(key) ?? 0) + n;
    if (v > 0) m.set(key, v);
    else m.delete(key);
  };

  /** Starts waiting calls while a sandbox is free, taking organizations in turn and skipping any at its share. */
  function pump() {
    while (running < quota.maxRunning) {
      let pick: string | undefined;
      for (const orgId of queues.keys()) {
        if ((runningByOrg.get(orgId) ?? 0) >= quota.maxRunningPerOrg) continue;
        if (pick === undefined || (lastServed.get(orgId) ?? 0) < (lastServed.get(pick) ?? 0)) pick = orgId;
      }
      const queue = pick === undefined ? undefined : queues.get(pick);
      const start = queue?.shift();
      if (pick === undefined || !queue || !start) return;
      if (queue.length === 0) queues.delete(pick);
      lastServed.set(pick, ++turns);
      queued--;
      running++;
      add(runningByOrg, pick, 1);
      start();
    }
  }

  return {
    stats: () => ({ running, queued }),
    async run<T>(owner: SandboxOwner, fn: () => Promise<T>): Promise<T> {
      // The user's own share first: "you have too many" is the answer that user can act on.
      if (owner.userId !== undefined && (pendingByUser.get(owner.userId) ?? 0) >= quota.maxPendingPerUser) {
        throw new SandboxBusy("user");
      }
      if ((pendingByOrg.get(owner.orgId) ?? 0) >= quota.maxPendingPerOrg) throw new SandboxBusy("org");
      if (queued >= quota.maxQueued) throw new SandboxBusy("server");
      add(pendingByOrg, owner.orgId, 1);
      if (owner.userId !== undefined) add(pendingByUser, owner.userId, 1);
      try {
        await new Promise<void>((start) => {
          const queue = queues.get(owner.orgId) ?? [];
          queue.push(start);
          queues.set(owner.orgId, queue);
          queued++;
          pump();
        });
        try {
          return await fn();
        } finally {
          running--;
          add(runningByOrg, owner.orgId, -1);
        }
      } finally {
        add(pendingByOrg, owner.orgId, -1);
        if (!pendingByOrg.has(owner.orgId)) lastServed.delete(owner.orgId);
        if (owner.userId !== undefined) add(pendingByUser, owner.userId, -1);
        pump();
      }
    },
  };
}
