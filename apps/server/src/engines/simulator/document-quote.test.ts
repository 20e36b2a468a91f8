import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../chat/types.ts";
import { bestPassage } from "./document-quote.ts";

const msg = (role: ChatMessage["role"], content: string) => ({ role, content, images: [] }) as unknown as ChatMessage;

const POLICY = `Northwind travel policy
Employees book economy class for flights shorter than six hours. Hotel costs are reimbursed up to 150 dollars per night in large cities.
The aurora observatory badge must be returned to reception on the last day of the trip.`;

describe("bestPassage", () => {
  it("quotes the sentence that matches the question", () => {
    const m = [msg("system", POLICY), msg("user", "How much are hotel costs reimbursed per night?")];
    expect(bestPassage(m, "How much are hotel costs reimbursed per night?")).toBe(
      "Hotel costs are reimbursed up to 150 dollars per night in large cities.",
    );
    expect(bestPassage(m, "Where do I return the observatory badge?")).toBe(
      "The aurora observatory badge must be returned to reception on the last day of the trip.",
    );
  });

  it("matches Chinese by character pairs", () => {
    const doc =
      "会议通知：本周的部门会议在三楼举行，请准时参加。午餐由公司提供，地点在一楼餐厅。如有疑问请联系行政部。".repeat(
        2,
      );
    expect(bestPassage([msg("system", doc)], "部门会议在哪里举行？")).toBe(
      "会议通知：本周的部门会议在三楼举行，请准时参加。",
    );
  });

  it("quotes nothing for short system prompts or unrelated questions", () => {
    expect(
      bestPassage([msg("system", "You are a helpful assistant.")], "How are hotel costs reimbursed?"),
    ).toBeUndefined();
    expect(bestPassage([msg("system", POLICY)], "What is the capital of France?")).toBeUndefined();
  });
});
