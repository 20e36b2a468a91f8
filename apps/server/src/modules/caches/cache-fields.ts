/** Checks of the optional fields of create and update (docs/api-compat.md §7.1); each refusal names the field. */
import { CONTEXT_CACHE_LIMITS as L } from "@moonport/contracts";
import { gatewayErrors } from "../../chat/errors.ts";

const invalid = gatewayErrors.invalidRequest;

export function optionalText(body: Record<string, unknown>, field: string, max: number): string | null | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== "string") throw invalid(`${field} must be a string`);
  if ([...v].length > max) throw invalid(`${field} must be at most ${max} characters`);
  return v;
}

export function optionalMetadata(body: Record<string, unknown>): Record<string, string> | undefined {
  const v = body.metadata;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) throw invalid("metadata must be an object of string values");
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > L.maxMetadataPairs) throw invalid(`metadata holds at most ${L.maxMetadataPairs} pairs`);
  for (const [k, value] of entries) {
    if ([...k].length > L.maxMetadataKeyChars) {
      throw invalid(`metadata keys must be at most ${L.maxMetadataKeyChars} characters`);
    }
    if (typeof value !== "string") throw invalid(`metadata.${k.slice(0, 64)} must be a string`);
    if ([...value].length > L.maxMetadataValueChars) {
      throw invalid(`metadata values must be at most ${L.maxMetadataValueChars} characters`);
    }
  }
  return v as Record<string, string>;
}

/**
 * The expiry from `expired_at` (Unix seconds, later than now) or `ttl` (seconds), never both; unset or 0 → the
 * default hour. Longer than the maximum lifetime is refused rather than cut, so a client learns the limit.
 */
export function expiryFrom(body: Record<string, unknown>, now: Date, required: boolean): Date | undefined {
  const at = body.expired_at;
  const ttl = body.ttl;
  const has = (x: unknown) => x !== undefined && x !== null && x !== 0;
  if (has(at) && has(ttl)) throw invalid("use either expired_at or ttl, not both");
  const nowS = now.getTime() / 1000;
  let seconds: number | undefined;
  if (has(at)) {
    if (typeof at !== "number" || !Number.isInteger(at)) throw invalid("expired_at must be an integer (Unix seconds)");
    if (at <= nowS) throw invalid("expired_at must be later than now");
    seconds = at - nowS;
  } else if (has(ttl)) {
    if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl <= 0) {
      throw invalid("ttl must be a positive integer (seconds)");
    }
    seconds = ttl;
  } else if (!required) {
    return undefined;
  } else {
    seconds = L.defaultTtlSeconds;
  }
  if (seconds > L.maxTtlSeconds + 1) throw invalid(`a context cache lives at most ${L.maxTtlSeconds} seconds`);
  return new Date(now.getTime() + Math.round(seconds * 1000));
}
