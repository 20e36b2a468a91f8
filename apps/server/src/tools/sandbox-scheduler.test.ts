import { describe, expect, it } from "vitest";
import { createSandboxScheduler, SandboxBusy, type SandboxQuota } from "./sandbox-scheduler.ts";

const QUOTA: SandboxQuota = {
  maxRunning: 1,
  maxRunningPerOrg: 1,
  maxPendingPerOrg: 10,
  maxPendingPerUser: 10,
  maxQueued: 10,
};

/** A job that runs until released, recording when it started. */
function gate(order: string[], name: string) {
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  return {
    release: () => release(),
    fn: async () => {
      order.push(name);
      await released;
      return name;
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("sandbox scheduler", () => {
  it("serves waiting organizations in turn, not in arrival order", async () => {
    const s = createSandboxScheduler(QUOTA);
    const order: string[] = [];
    const jobs = ["a1", "a2", "a3", "b1", "c1", "b2"].map((name) => ({ name, ...gate(order, name) }));
    const done = jobs.map((j) => s.run({ orgId: j.name[0]! }, j.fn));
    await tick();
    expect(s.stats()).toEqual({ running: 1, queued: 5 });
    for (const j of ["a1", "b1", "c1", "a2", "b2", "a3"]) {
      await tick();
      expect(order.at(-1)).toBe(j);
      jobs.find((x) => x.name === j)!.release();
    }
    expect(await Promise.all(done)).toEqual(["a1", "a2", "a3", "b1", "c1", "b2"]);
    expect(s.stats()).toEqual({ running: 0, queued: 0 });
  });

  it("keeps an organization to its share of sandboxes while another waits", async () => {
    const s = createSandboxScheduler({ ...QUOTA, maxRunning: 3, maxRunningPerOrg: 2 });
    const order: string[] = [];
    const a = [1, 2, 3, 4].map((i) => gate(order, `a${i}`));
    a.forEach((g) => void s.run({ orgId: "a" }, g.fn));
    await tick();
    expect(order).toEqual(["a1", "a2"]);
    const b = gate(order, "b1");
    const bDone = s.run({ orgId: "b" }, b.fn);
    await tick();
    expect(order).toEqual(["a1", "a2", "b1"]);
    b.release();
    expect(await bDone).toBe("b1");
    for (const g of a) g.release();
  });

  it("refuses a call over the user's, the organization's or the server's cap, and frees the count after", async () => {
    const s = createSandboxScheduler({ ...QUOTA, maxPendingPerUser: 1, maxPendingPerOrg: 2, maxQueued: 2 });
    const order: string[] = [];
    const first = gate(order, "first");
    const running = s.run({ orgId: "a", userId: "u" }, first.fn);
    await expect(s.run({ orgId: "a", userId: "u" }, async () => "x")).rejects.toEqual(new SandboxBusy("user"));
    const second = gate(order, "second");
    const queuedForA = s.run({ orgId: "a", userId: "v" }, second.fn);
    await expect(s.run({ orgId: "a" }, async () => "x")).rejects.toMatchObject({ scope: "org" });
    const third = gate(order, "third");
    const queuedForB = s.run({ orgId: "b" }, third.fn);
    await expect(s.run({ orgId: "c" }, async () => "x")).rejects.toMatchObject({ scope: "server" });
    first.release();
    second.release();
    third.release();
    await Promise.all([running, queuedForA, queuedForB]);
    // A failing job frees its place too.
    await expect(s.run({ orgId: "a", userId: "u" }, async () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
    expect(await s.run({ orgId: "a", userId: "u" }, async () => "again")).toBe("again");
    expect(s.stats()).toEqual({ running: 0, queued: 0 });
  });
});
