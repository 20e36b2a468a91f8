import { randomString, sha256Hex } from "@moonport/db";

/** `sk-` + 48 base62 characters (≥ 285 bits of entropy). */
export const API_KEY_PATTERN = /^sk-[0-9A-Za-z]{40,}$/;

export function generateApiKey(): { key: string; hash: string; mask: string } {
  const key = `sk-${randomString(48)}`;
  return { key, hash: hashApiKey(key), mask: maskApiKey(key) };
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** "sk-Ab12…x9Yz": enough to recognise a key, useless to use one. */
function maskApiKey(key: string): string {
  return `${key.slice(0, 7)}…${key.slice(-4)}`;
}
