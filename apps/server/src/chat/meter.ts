/**
 * Admission and settlement: the money side of a chat run, which the chat core leaves to its caller. The gateway's
 * pipeline implements it (`GatewayPipeline extends ChatMeter<KeyIdentity, Admission>`) and /v1 passes the API
 * key's identity; the playground passes the same pipeline with a signed-in member's identity in place of a key,
 * so its runs meet the same limits, budgets and bills as API calls.
 */

/** How a run ended, as billing records it. */
export type ChatSettleStatus = "ok" | "client_closed" | "upstream_error" | "error";

/** Token usage of a run as billed (not the wire shape; see `ChatUsage` in @moonport/contracts for that). */
export interface MeteredUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

/**
 * An explicit context cache a run used (docs/api-compat.md §7.1): its tokens are not billed as input; a call fee is.
 */
export interface UsedContextCache {
  id: string;
  tokens: number;
}

/** What the chat core needs of an admitted run. */
export interface ChatAdmission {
  /** Headers for the response (x-ratelimit-*). */
  headers: Record<string, string>;
  /** Frees what admission holds (the concurrency slot); safe to call more than once. */
  release(): void;
  /**
   * Streams: lets the meter sample what has been delivered so far, so that a crash mid-stream still bills the
   * prompt and the chunks sent (the gateway journals the samples); optional.
   */
  track?(sample: () => MeteredUsage | null): void;
}

export interface ChatMeter<Caller, A extends ChatAdmission = ChatAdmission> {
  /**
   * Lets the run start or throws a GatewayError (403/429: limits, budgets, balance). `key` is the caller's
   * identity; `admissionTokens` (prompt + max_tokens) is what token limits count up front.
   */
  admit(req: { key: Caller; requestId: string; model: string; admissionTokens: number }): Promise<A>;
  /** Bills what the run produced. The chat core calls it exactly once per admitted run, after `release()`. */
  settle(req: {
    admission: A;
    usage: MeteredUsage;
    webSearchCalls: number;
    status: ChatSettleStatus;
    contextCache?: UsedContextCache;
  }): Promise<void>;
}
