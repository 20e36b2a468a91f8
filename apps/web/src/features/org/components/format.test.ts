import { describe, expect, it } from "vitest";
import { money } from "./format.ts";

describe("console money display", () => {
  it("shows two decimals from one unit up and two significant digits below", () => {
    expect(money("12500000000", "USD")).toBe("$12.50");
    expect(money("0", "CNY")).toBe("¥0.00");
    expect(money("100000000", "USD")).toBe("$0.10");
    expect(money("1234567", "USD")).toBe("$0.0012");
    expect(money("50000", "CNY")).toBe("¥0.000050");
    expect(money("7", "USD")).toBe("$0.000000007");
  });
});
