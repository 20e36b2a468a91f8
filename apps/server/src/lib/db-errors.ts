/** True when `e` (or the driver error drizzle wrapped in it) is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const err = cur as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (err.code === "23505") {
      if (!constraint) return true;
      return err.constraint === constraint || (typeof err.message === "string" && err.message.includes(constraint));
    }
    cur = err.cause;
  }
  return false;
}
