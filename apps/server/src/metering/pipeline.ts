/**
 * The seam between the chat side (/v1 routes, and the chat core's validation, engines and response shapes) and the
 * money side (keys, limits, budgets, metering). Routes authenticate; the chat core's run loop (chat/run-chat.ts)
 * admits and settles. Nothing else on the hot path touches the database.
 *
 *   authenticate(header) ─► admit(key, estimate) ─► engine ─► settle(admission, usage)
 */
import type { Currency } from "@moonport/contracts";
import type { ChatMeter, UsedContextCache } from "../chat/meter.ts";
import type { OrgBalance } from "../modules/billing/index.ts";
import type { BillLine } from "./journal.ts";

/** What a valid key resolves to, from the in-memory key cache. */
export interface KeyIdentity {
  keyId: string;
  orgId: string;
  projectId: string;
  currency: Currency;
}

export interface AdmitRequest {
  key: KeyIdentity;
  requestId: string;
  /** The model that will be billed (after -auto resolution). */
  model: string;
  /** Prompt tokens plus max_tokens (or its default): what TPM and TPD count at admission. */
  admissionTokens: number;
}

export interface Admission {
  requestId: string;
  key: KeyIdentity;
  model: string;
  startedAt: number;
  /** x-ratelimit-* headers to add to the response. */
  headers: Record<string, string>;
  /** Frees the concurrency slot; safe to call more than once. */
  release(): void;
  /**
   * For streams: journals the admission at once and then, every journal interval, what `sample` says was
   * produced so far, so that after a crash the next start bills the prompt and what was already sent (null:
   * nothing yet, nothing to bill). settle() supersedes it.
   */
  track?(sample: () => Usage | null): void;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

export interface SettleRequest {
  admission: Admission;
  usage: Usage;
  /** Billed per call on top of tokens, e.g. one `$web_search` fee per search tool call returned. */
  webSearchCalls: number;
  status: "ok" | "client_closed" | "upstream_error" | "error";
  /** The run began with an explicit context cache's messages: they are not billed as input; a call fee is. */
  contextCache?: UsedContextCache;
}

/** Bill lines that belong to no chat run (context cache creation and storage), charged like a run's. */
export interface ChargeRequest {
  requestId: string;
  orgId: string;
  projectId: string;
  apiKeyId: string;
  /** ms since epoch */
  createdAt: number;
  lines: BillLine[];
}

/** Also the chat core's meter: /v1 (and the playground) hand the pipeline itself to `startChat`. */
export interface GatewayPipeline extends ChatMeter<KeyIdentity, Admission> {
  /**
   * Throws (or, when the key must be read from the database, rejects with) GatewayError 401 for missing,
   * malformed, unknown or disabled keys. Synchronous once the key is cached, the usual case: no promise per request.
   */
  authenticate(authorization: string | undefined): KeyIdentity | Promise<KeyIdentity>;
  /** Throws GatewayError 403/429 (archived project, budget spent, balance ≤ 0, rate limits). */
  admit(req: AdmitRequest): Promise<Admission>;
  /**
   * The organization's balance (docs/api-compat.md §6) with every request settled so far counted, so a client that
   * reads its balance right after a call sees that call. Null when the organization does not exist.
   */
  balance(orgId: string): Promise<OrgBalance | null>;
  /** Writes the bill row and moves the balance; never throws into the response path. */
  settle(req: SettleRequest): Promise<void>;
}
