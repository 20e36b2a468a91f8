import { hash, verify } from "@node-rs/argon2";

/**
 * argon2id with the library's defaults (19 MiB, 2 passes), the OWASP baseline. `2` is Algorithm.Argon2id, a
 * const enum that isolated modules cannot import.
 */
const OPTIONS = { algorithm: 2 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// Verifying against a real hash when the account does not exist keeps sign-in timing from revealing accounts.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hash("not-a-real-password-0!A", OPTIONS);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
