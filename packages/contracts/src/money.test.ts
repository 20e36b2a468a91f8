import { describe, expect, it } from "vitest";
import { formatMoney, parseMoney } from "./money.ts";

describe("formatMoney", () => {
  it("keeps every significant decimal by default, so a spend always shows", () => {
    expect(formatMoney(parseMoney("100") - parseMoney("0.0043"), "CNY")).toBe("¥99.9957");
    expect(formatMoney(parseMoney("100") - 1n, "USD")).toBe("$99.999999999");
    expect(formatMoney(parseMoney("0.0043"), "CNY")).toBe("¥0.0043");
    expect(formatMoney(7n, "USD")).toBe("$0.000000007");
  });

  it("shows at least two decimals and groups thousands", () => {
    expect(formatMoney(0n, "CNY")).toBe("¥0.00");
    expect(formatMoney(parseMoney("12.5"), "USD")).toBe("$12.50");
    expect(formatMoney(parseMoney("1234567.1"), "CNY")).toBe("¥1,234,567.10");
    expect(formatMoney("-50000000", "USD")).toBe("-$0.05");
  });

  it("rounds half away from zero when a number of decimals is asked for", () => {
    expect(formatMoney(parseMoney("99.9957"), "CNY", 2)).toBe("¥100.00");
    expect(formatMoney(parseMoney("0.0049"), "USD", 3)).toBe("$0.005");
    expect(formatMoney(parseMoney("50"), "CNY", 0)).toBe("¥50");
  });
});
