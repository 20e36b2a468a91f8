import { describe, expect, it } from "vitest";
import { ApiError, errorFrom, sseData } from "./api.ts";

/** A response body that arrives in the given pieces, the way a network delivers a stream. */
function body(...chunks: string[]): NonNullable<Response["body"]> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function all(gen: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const d of gen) out.push(d);
  return out;
}

describe("request layer", () => {
  it("reads SSE events split anywhere across chunks, with or without the space after `data:`", async () => {
    const events = await all(
      sseData(body('data: {"a":', "1}\n\n: keep-alive\n\nda", 'ta:{"b":2}\r\n\r\n', "data: [DONE]\n\n")),
    );
    expect(events).toEqual(['{"a":1}', '{"b":2}', "[DONE]"]);
  });

  it("joins the data lines of one event and skips events without data", async () => {
    expect(await all(sseData(body("event: ping\n\ndata: one\ndata: two\n\n")))).toEqual(["one\ntwo"]);
  });

  it("turns the error envelope into an ApiError with its message, details, request id and retry-after", () => {
    const e = errorFrom(
      429,
      "Too Many Requests",
      {
        error: {
          code: "rate_limited",
          message: "Slow down",
          details: [{ path: "n", message: "too many" }],
          requestId: "r1",
        },
      },
      "3",
    );
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.code, e.message, e.details, e.requestId, e.retryAfter]).toEqual([
      429,
      "rate_limited",
      "Slow down",
      [{ path: "n", message: "too many" }],
      "r1",
      3,
    ]);
  });

  it("falls back to the status text when the body is not the envelope", () => {
    const e = errorFrom(502, "Bad Gateway", undefined);
    expect([e.code, e.message, e.details, e.retryAfter]).toEqual(["network", "Bad Gateway", [], null]);
  });
});
