import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NANO_PER_UNIT, parseMoney } from "../money.ts";
import {
  COUNTRY_CODES,
  formatRate,
  InvoiceInfoRequest,
  InvoiceTitleRequest,
  redLetterStateText,
  splitTax,
  VAT_RATE_BP,
} from "./invoices.ts";

const CENT = NANO_PER_UNIT / 100n;

describe("splitTax (net = gross / (1 + rate) half up to the cent, tax = gross − net)", () => {
  it("known values at 9 %", () => {
    expect(splitTax(parseMoney("100"), VAT_RATE_BP)).toEqual({ net: parseMoney("91.74"), tax: parseMoney("8.26") });
    expect(splitTax(parseMoney("109"), VAT_RATE_BP)).toEqual({ net: parseMoney("100"), tax: parseMoney("9") });
    expect(splitTax(parseMoney("0.01"), VAT_RATE_BP)).toEqual({ net: parseMoney("0.01"), tax: 0n });
    // 0.06 / 1.09 = 0.05504… → nearest cent 0.06, so the tax of so small an amount is 0.
    expect(splitTax(parseMoney("0.06"), VAT_RATE_BP)).toEqual({ net: parseMoney("0.06"), tax: 0n });
    expect(splitTax(parseMoney("50000"), VAT_RATE_BP)).toEqual({
      net: parseMoney("45871.56"),
      tax: parseMoney("4128.44"),
    });
    expect(splitTax(0n, VAT_RATE_BP)).toEqual({ net: 0n, tax: 0n });
  });

  it("a half cent rounds up", () => {
    // rate 0 % splits nothing; at 100 % (10000 bp) gross 0.01 → net 0.005 → 0.01 (half up), tax 0.
    expect(splitTax(parseMoney("0.01"), 10_000)).toEqual({ net: parseMoney("0.01"), tax: 0n });
    expect(splitTax(parseMoney("0.03"), 10_000)).toEqual({ net: parseMoney("0.02"), tax: parseMoney("0.01") });
  });

  it("refuses a gross that is not whole cents and a fractional rate", () => {
    expect(() => splitTax(parseMoney("1.001"), VAT_RATE_BP)).toThrow(RangeError);
    expect(() => splitTax(parseMoney("1"), 9.5)).toThrow(RangeError);
  });

  it("property: parts are whole cents, add up exactly, and net is the nearest cent to gross / (1 + rate)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 3000 }), (cents, bp) => {
        const gross = cents * CENT;
        const { net, tax } = splitTax(gross, bp);
        expect(net + tax).toBe(gross);
        expect(net % CENT).toBe(0n);
        expect(tax >= 0n).toBe(true);
        // |net·(10000+bp) − gross·10000| ≤ half a cent·(10000+bp), in integers:
        const err = net * BigInt(10_000 + bp) - gross * 10_000n;
        const half = (CENT * BigInt(10_000 + bp)) / 2n;
        expect(err <= half && err > -half).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("formats rates", () => {
    expect(formatRate(900)).toBe("9");
    expect(formatRate(750)).toBe("7.5");
    expect(formatRate(1025)).toBe("10.25");
  });
});

describe("forms", () => {
  it("a company title needs a valid USCC; bank accounts are digits only", () => {
    const base = { titleType: "company", title: "Acme" } as const;
    expect(InvoiceTitleRequest.safeParse(base).success).toBe(false);
    expect(InvoiceTitleRequest.safeParse({ ...base, uscc: "91350100M000100Y44" }).success).toBe(false);
    expect(InvoiceTitleRequest.safeParse({ ...base, uscc: "91350100M000100Y43" }).success).toBe(true);
    expect(InvoiceTitleRequest.safeParse({ ...base, uscc: "91350100M000100Y43", bankAccount: "62-22" }).success).toBe(
      false,
    );
    expect(InvoiceTitleRequest.safeParse({ titleType: "personal", title: "张三" }).success).toBe(true);
  });
  it("international info: ISO 3166-1 alpha-2 country, required fields, valid e-mail", () => {
    const ok = {
      name: "Jane",
      email: "jane@example.com",
      street: "1 Main St",
      city: "Springfield",
      postal_code: "12345",
      country_code: "us",
    };
    expect(InvoiceInfoRequest.parse(ok).country_code).toBe("US");
    expect(InvoiceInfoRequest.safeParse({ ...ok, country_code: "UK" }).success).toBe(false); // GB is the code
    expect(InvoiceInfoRequest.safeParse({ ...ok, email: "jane@" }).success).toBe(false);
    expect(InvoiceInfoRequest.safeParse({ ...ok, city: " " }).success).toBe(false);
    expect(COUNTRY_CODES).toHaveLength(249);
  });
});

describe("red-letter state words", () => {
  it("01 and 04 tell the coming document while the round is open, and that it was issued once it closed", () => {
    const open = { state: "04", closedAt: null } as const;
    const closed = { state: "04", closedAt: "2026-01-02T00:00:00.000Z" } as const;
    expect(redLetterStateText(open, "CNY")["en-US"]).toBe(
      "04 Confirmed by both: the platform issues the red-letter invoice.",
    );
    expect(redLetterStateText(closed, "CNY")["en-US"]).toBe("04 Confirmed by both: the red-letter invoice was issued.");
    expect(redLetterStateText(closed, "CNY")["zh-CN"]).toBe("04 购销双方已确认：已开具红字发票。");
    expect(redLetterStateText({ ...closed, state: "01" }, "USD")["en-US"]).toBe(
      "01 No confirmation needed (individual): the credit note was issued.",
    );
    // The other closed states already say how the round ended.
    expect(redLetterStateText({ ...closed, state: "08" }, "CNY")["en-US"]).toBe("08 Void: withdrawn by its initiator.");
  });
});
