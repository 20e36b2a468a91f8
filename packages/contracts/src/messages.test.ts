import { describe, expect, it } from "vitest";
import { errorMessage } from "./errors.ts";
import { translateValidation, vmsg } from "./validation.ts";

describe("numbers in messages", () => {
  it("are grouped as the pages write them", () => {
    expect(translateValidation(vmsg("tpm_above_tier", { max: 500000 }), "zh-CN")).toContain("500,000");
    expect(translateValidation(vmsg("range", { min: 0, max: 1_000_000_000 }), "en-US")).toContain("1,000,000,000");
    expect(errorMessage("rate_limited", "en-US", { seconds: 30 })).toContain("30");
  });
});
