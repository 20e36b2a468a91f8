/**
 * The hot path's key lookup: SHA-256 of the presented key → identity, from memory once warm. Unknown and unusable
 * keys are remembered too (bounded), so a flood of bad keys does not reach the database. Entries live until an
 * invalidation (see key-events.ts) evicts them.
 */
import type { Currency, Edition } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { InvalidationEvent } from "./key-events.ts";
import type { KeyIdentity } from "./pipeline.ts";

export interface CachedKey {
  identity: KeyIdentity;
  keyHash: string;
  edition: Edition;
}

const NEGATIVE_MAX = 10_000;
const NEGATIVE_TTL_MS = 60_000;

export class KeyCache {
  private readonly valid = new Map<string, CachedKey>();
  /** hash → expiry (ms); Map insertion order makes the oldest the first to go when full. */
  private readonly invalid = new Map<string, number>();
  private readonly loading = new Map<string, Promise<CachedKey | null>>();
  /** Bumped by every eviction: a lookup that started before it must not cache what it read. */
  private generation = 0;

  constructor(private readonly db: Db) {}

  /** Synchronous on a hit or a remembered miss; a promise only when the database must be read. */
  lookup(keyHash: string): CachedKey | null | Promise<CachedKey | null> {
    const hit = this.valid.get(keyHash);
    if (hit) return hit;
    const miss = this.invalid.get(keyHash);
    if (miss !== undefined) {
      if (miss > Date.now()) return null;
      this.invalid.delete(keyHash);
    }
    let pending = this.loading.get(keyHash);
    if (!pending) {
      pending = this.load(keyHash).finally(() => this.loading.delete(keyHash));
      this.loading.set(keyHash, pending);
    }
    return pending;
  }

  private async load(keyHash: string): Promise<CachedKey | null> {
    const generation = this.generation;
    const rows = await this.db
      .select({
        keyId: schema.apiKeys.id,
        orgId: schema.apiKeys.orgId,
        projectId: schema.apiKeys.projectId,
        keyStatus: schema.apiKeys.status,
        deletedAt: schema.apiKeys.deletedAt,
        projectStatus: schema.projects.status,
        currency: schema.organizations.currency,
        edition: schema.organizations.edition,
      })
      .from(schema.apiKeys)
      .innerJoin(schema.projects, eq(schema.projects.id, schema.apiKeys.projectId))
      .innerJoin(schema.organizations, eq(schema.organizations.id, schema.apiKeys.orgId))
      .where(eq(schema.apiKeys.keyHash, keyHash))
      .limit(1);
    const row = rows[0];
    const usable = row && row.keyStatus === "enabled" && !row.deletedAt && row.projectStatus === "active";
    const entry: CachedKey | null = usable
      ? {
          keyHash,
          edition: row.edition,
          identity: {
            keyId: row.keyId,
            orgId: row.orgId,
            projectId: row.projectId,
            currency: row.currency as Currency,
          },
        }
      : null;
    if (generation === this.generation) {
      if (entry) this.valid.set(keyHash, entry);
      else this.rememberInvalid(keyHash);
    }
    return entry;
  }

  private rememberInvalid(keyHash: string) {
    if (this.invalid.size >= NEGATIVE_MAX) {
      const oldest = this.invalid.keys().next().value;
      if (oldest !== undefined) this.invalid.delete(oldest);
    }
    this.invalid.set(keyHash, Date.now() + NEGATIVE_TTL_MS);
  }

  evict(event: InvalidationEvent) {
    this.generation++;
    if (event === "all") {
      this.valid.clear();
      this.invalid.clear();
      return;
    }
    if ("keyHash" in event) {
      this.valid.delete(event.keyHash);
      this.invalid.delete(event.keyHash);
      return;
    }
    // Re-enabling a key (or restoring a project) must not wait for a negative entry to expire; we cannot tell
    // which negative entries belong to the target, and refilling them is cheap.
    this.invalid.clear();
    for (const [hash, entry] of this.valid) {
      const id = entry.identity;
      if (
        ("keyId" in event && id.keyId === event.keyId) ||
        ("projectId" in event && id.projectId === event.projectId) ||
        ("orgId" in event && id.orgId === event.orgId)
      ) {
        this.valid.delete(hash);
      }
    }
  }

  get size() {
    return this.valid.size;
  }
}
