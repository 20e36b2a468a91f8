import { describe, expect, it } from "vitest";
import { newId, newTimeOrderedId, timeOfOrderedId } from "./ids.ts";

describe("newTimeOrderedId", () => {
  it("has newId's shape and sorts in the order the ids were made, even thousands in one millisecond", () => {
    const ids = Array.from({ length: 5000 }, () => newTimeOrderedId("bill"));
    for (const id of ids) {
      expect(id).toMatch(/^bill_[0-9a-v]{20}$/);
      expect(id).toHaveLength(newId("bill").length);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("starts with the time, so ids made a millisecond apart are ordered across calls too", async () => {
    const a = newTimeOrderedId("bill");
    await new Promise((r) => setTimeout(r, 2));
    const b = newTimeOrderedId("bill");
    expect(a < b).toBe(true);
    expect(a.slice(5, 14) < b.slice(5, 14)).toBe(true);
  });

  it("carries the current time in milliseconds, whole (no digit lost to overflow)", () => {
    const before = Date.now();
    const id = newTimeOrderedId("bill");
    const ms = [...id.slice(5, 14)].reduce((n, c) => n * 32 + "0123456789abcdefghijklmnopqrstuv".indexOf(c), 0);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThan(before + 2000);
    expect(timeOfOrderedId(id)).toBe(ms);
  });

  it("gives its time back through timeOfOrderedId, and null for anything that is not such an id", () => {
    const before = Date.now();
    const at = timeOfOrderedId(newTimeOrderedId("req"));
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    for (const bad of [
      "",
      "req_",
      "req_0123456789",
      "req_0123456789abcdefghijk",
      "REQ_0123456789abcdefghij",
      "req_0123456789abcdefghiz",
      "0123456789abcdefghij",
    ]) {
      expect(timeOfOrderedId(bad)).toBeNull();
    }
  });
});
