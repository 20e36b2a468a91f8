/**
 * At most `max` callers at once; the others wait their turn in order. For the tools' worker threads (sandboxes,
 * schema checks): the machine's cores are shared, and a burst of requests must not start a worker each.
 */
export function concurrencyLimit(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function limited<T>(fn: () => Promise<T>): Promise<T> {
    if (running < max) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
