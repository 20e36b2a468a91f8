/**
 * The seam between the /v1 routes (validation, engines, response shapes) and the money side (keys, limits,
 * budgets, metering). Routes call these three steps in order; nothing else on the hot path touches the database.
 *
 *   authenticate(header) ─► admit(key, estimate) ─► engine ─► settle(admission, usage)
 */
import type { Currency } from "@moonport/contracts";
import type { OrgBalance } from "../modules/billing/balance.ts";

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
}

export interface GatewayPipeline {
  /** Throws GatewayError 401 for missing, malformed, unknown or disabled keys. */
  authenticate(authorization: string | undefined): Promise<KeyIdentity>;
  /** Throws GatewayError 403/429 (archived project, budget spent, balance ≤ 0, rate limits). */
  admit(req: AdmitRequest): Promise<Admission>;
  /**
   * The organization's balance (api-compat §6) with every request settled so far counted, so a client that
   * reads its balance right after a call sees that call. Null when the organization does not exist.
   */
  balance(orgId: string): Promise<OrgBalance | null>;
  /** Writes the bill row and moves the balance; never throws into the response path. */
  settle(req: SettleRequest): Promise<void>;
}
