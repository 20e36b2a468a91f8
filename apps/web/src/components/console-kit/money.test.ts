import { describe, expect, it } from "vitest";
import { formatInt, money } from "./money.ts";

describe("console money display", () => {
  it("keeps every significant decimal, at least two", () => {
    expect(money("12500000000", "USD")).toBe("$12.50");
    expect(money("0", "CNY")).toBe("¥0.00");
    expect(money("100000000", "USD")).toBe("$0.10");
    expect(money("1234567", "USD")).toBe("$0.001234567");
    expect(money("50000", "CNY")).toBe("¥0.00005");
    expect(money("99995700000", "CNY")).toBe("¥99.9957");
  });

  it("writes integers with the locale's grouping", () => {
    expect(formatInt(500000, "en-US")).toBe("500,000");
    expect(formatInt(500000, "zh-CN")).toBe("500,000");
  });
});
