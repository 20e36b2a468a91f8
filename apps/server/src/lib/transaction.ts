/**
 * Transactions with an after-commit hook. Work that must only happen once a change is durable — telling the
 * gateway's caches on every instance that keys or balances changed — is registered inside the transaction and run
 * after it commits; a rollback drops it. Callers therefore cannot forget it, and cannot announce a change that
 * did not happen.
 *
 * A `withTransaction` given a transaction that itself came from `withTransaction` joins it: its hooks run when
 * the outermost one commits. So domain functions can open their own transaction or take part in a caller's.
 */
import type { Db, Tx } from "@moonport/db";

export type AfterCommitFn = () => unknown;
export type AfterCommit = (fn: AfterCommitFn) => void;

interface Logger {
  error(obj: unknown, msg?: string): void;
}

/** Hooks of the transactions opened here, by transaction object (so nested calls find the outer list). */
const pending = new WeakMap<Db | Tx, AfterCommitFn[]>();

export async function withTransaction<T>(
  scope: { db: Db | Tx; log?: Logger },
  fn: (tx: Tx, afterCommit: AfterCommit) => Promise<T>,
): Promise<T> {
  const outer = pending.get(scope.db);
  if (outer) return fn(scope.db as Tx, (f) => outer.push(f));
  const hooks: AfterCommitFn[] = [];
  const result = await (scope.db as Db).transaction(async (tx) => {
    pending.set(tx, hooks);
    try {
      return await fn(tx, (f) => hooks.push(f));
    } finally {
      pending.delete(tx);
    }
  });
  // The change is committed: a failing hook is logged, never turned into a failure of the change itself.
  for (const hook of hooks) {
    try {
      await hook();
    } catch (err) {
      if (scope.log) scope.log.error({ err }, "after-commit hook failed");
      else console.error("after-commit hook failed", err);
    }
  }
  return result;
}
