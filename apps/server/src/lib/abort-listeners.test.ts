import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { listenAbort, liveAbortListeners } from "./abort-listeners.ts";

describe("listenAbort", () => {
  it("calls each listener still listening once when the signal aborts, through one EventTarget listener", () => {
    const controller = new AbortController();
    const heard: string[] = [];
    const before = liveAbortListeners();
    for (let i = 0; i < 100; i++) listenAbort(controller.signal, () => heard.push(`gone ${i}`))();
    const unlistenB = listenAbort(controller.signal, () => heard.push("b"));
    listenAbort(controller.signal, () => heard.push("a"));
    listenAbort(controller.signal, () => heard.push("c"));
    unlistenB();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    expect(liveAbortListeners()).toBe(before + 2);
    controller.abort();
    controller.abort();
    expect(heard).toEqual(["a", "c"]);
    expect(liveAbortListeners()).toBe(before);
  });

  it("keeps signals apart, and an unlisten after the abort is harmless", () => {
    const one = new AbortController();
    const two = new AbortController();
    const heard: string[] = [];
    const unlisten = listenAbort(one.signal, () => heard.push("one"));
    listenAbort(two.signal, () => heard.push("two"));
    one.abort();
    unlisten();
    expect(heard).toEqual(["one"]);
    two.abort();
    expect(heard).toEqual(["one", "two"]);
  });
});
