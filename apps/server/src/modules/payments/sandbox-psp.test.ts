import { readFileSync } from "node:fs";
import { LOCALES } from "@moonport/contracts";
import { describe, expect, it } from "vitest";
import { TEST_CARDS } from "./sandbox-psp.ts";

describe("the sandbox's test cards are documented", () => {
  it.each(LOCALES)("the %s self-hosting guide lists every test card", (locale) => {
    const guide = readFileSync(
      new URL(`../../../../web/content/docs/${locale}/guide/self-hosting.mdx`, import.meta.url),
      "utf8",
    );
    for (const number of Object.keys(TEST_CARDS)) {
      expect(guide, number).toContain(`| ${number.replace(/(\d{4})(?=\d)/g, "$1 ")} |`);
    }
  });
});
