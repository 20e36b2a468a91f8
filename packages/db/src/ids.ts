import { createHash, randomBytes } from "node:crypto";

const BASE32 = "0123456789abcdefghijklmnopqrstuv";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random string over `alphabet` without modulo bias (rejection sampling). */
export function randomString(length: number, alphabet: string = BASE62): string {
  const out: string[] = [];
  const max = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < max) out.push(alphabet[b % alphabet.length]!);
      if (out.length === length) break;
    }
  }
  return out.join("");
}

/** 20-character lowercase id with a readable prefix, e.g. org_cn0psmmcp7fclnphkcpg. */
export function newId(prefix: string): string {
  return `${prefix}_${randomString(20, BASE32)}`;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
