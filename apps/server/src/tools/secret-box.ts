/**
 * Encryption at rest of the credentials users give tools (MCP servers' tokens and passwords): AES-256-GCM with a
 * random 96-bit IV per value, stored as `v1:<iv>:<tag>:<ciphertext>` (base64url). The key is TOOL_SECRETS_KEY
 * (env: 32 bytes as base64 or 64 hex digits) or, when unset, a key generated once into
 * `<DATA_DIR>/secrets/tool-secrets.key` (mode 0600) so a self-hosted instance works out of the box. Losing the key
 * loses the stored secrets (the user enters them again); it is never logged or returned.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { keptSecret } from "../lib/kept-secret.ts";

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

function parseKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, "hex") : Buffer.from(t, "base64");
  if (key.length !== 32) throw new Error("TOOL_SECRETS_KEY must be 32 bytes (base64 or 64 hex digits)");
  return key;
}

/** The configured key, or the one in DATA_DIR (created on first use, readable by the server's user only). */
export function loadSecretKey(opts: { configured?: string; dataDir: string }): Buffer {
  if (opts.configured) return parseKey(opts.configured);
  return parseKey(keptSecret(opts.dataDir, "tool-secrets.key", () => randomBytes(32).toString("base64")));
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [
        "v1",
        iv.toString("base64url"),
        cipher.getAuthTag().toString("base64url"),
        data.toString("base64url"),
      ].join(":");
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split(":");
      if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
