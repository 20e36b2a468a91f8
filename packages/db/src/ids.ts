import { hash, randomBytes } from "node:crypto";

const BASE32 = "0123456789abcdefghijklmnopqrstuv";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Random bytes are drawn from a pool refilled 4 KiB at a time: one randomBytes call per id costs a system call
// and an allocation, which shows on the gateway's hot path (every bill and ledger line gets an id).
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;

function nextByte(): number {
  if (poolAt >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** Random string over `alphabet` without modulo bias (rejection sampling). */
export function randomString(length: number, alphabet: string = BASE62): string {
  let out = "";
  const max = 256 - (256 % alphabet.length);
  while (out.length < length) {
    const b = nextByte();
    if (b < max) out += alphabet[b % alphabet.length]!;
  }
  return out;
}

/** 20-character lowercase id with a readable prefix, e.g. org_cn0psmmcp7fclnphkcpg. */
export function newId(prefix: string): string {
  return `${prefix}_${randomString(20, BASE32)}`;
}

/** One-shot `crypto.hash` (Node ≥ 20.12): a third of createHash's cost, and every /v1 request hashes its key. */
export function sha256Hex(value: string): string {
  return hash("sha256", value, "hex");
}
