/**
 * Waiting on the thing itself instead of sleeping: a fixed sleep either wastes time or, on a loaded machine,
 * is too short and makes the test flaky.
 */

/**
 * Polls `check` until it returns something other than `undefined` or `false` and returns that, or throws after
 * `timeoutMs` naming `what` was awaited. For side effects with no event to listen to (a row, a Redis key).
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 5000, intervalMs = 10 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Resolves with `promise`, or rejects after `timeoutMs` naming `what` was awaited (a clearer failure than the test timeout). */
export function withDeadline<T>(what: string, promise: Promise<T>, timeoutMs = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
