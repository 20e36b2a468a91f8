import { describe, expect, it } from "vitest";
import { resources } from "./resources.ts";

function keys(obj: unknown, prefix = ""): string[] {
  if (typeof obj !== "object" || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe("i18n catalogs", () => {
  it("have the same namespaces and keys in en-US and zh-CN, none empty", () => {
    const en = resources["en-US"] as Record<string, unknown>;
    const zh = resources["zh-CN"] as Record<string, unknown>;
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const ns of Object.keys(en)) {
      const enKeys = keys(en[ns]).sort();
      const zhKeys = keys(zh[ns]).sort();
      expect({ ns, missingInZh: enKeys.filter((k) => !zhKeys.includes(k)) }).toEqual({ ns, missingInZh: [] });
      expect({ ns, missingInEn: zhKeys.filter((k) => !enKeys.includes(k)) }).toEqual({ ns, missingInEn: [] });
    }
  });
});
