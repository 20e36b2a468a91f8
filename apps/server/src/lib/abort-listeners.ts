/**
 * Listening to an AbortSignal without an EventTarget listener per listen. On Node 20 an `addEventListener` and its
 * `removeEventListener` on a signal cost ~3 µs together (measured in the /v1 profile), and /v1's signal
 * lives as long as its keep-alive connection (send-chat-run.ts `abortOnDisconnect`), so every upstream call
 * listened and unlistened on it. Here a signal gets one real listener, the first time anyone listens, which calls
 * whoever is listening when it fires; listening and unlistening are a Set's add and delete.
 */
const listeners = new WeakMap<AbortSignal, Set<() => void>>();
/** Listens not yet unlistened or fired, over all signals: a test can see that requests leave none behind. */
let live = 0;

export function liveAbortListeners(): number {
  return live;
}

/** Calls `fn` once when `signal` aborts (not if it already has: check `aborted` first); returns the unlisten. */
export function listenAbort(signal: AbortSignal, fn: () => void): () => void {
  let set = listeners.get(signal);
  if (!set) {
    const own = new Set<() => void>();
    signal.addEventListener(
      "abort",
      () => {
        const now = [...own];
        live -= own.size;
        own.clear();
        for (const f of now) {
          // As with listeners of their own: one that throws does not keep the others from hearing the abort.
          try {
            f();
          } catch (err) {
            queueMicrotask(() => {
              throw err;
            });
          }
        }
      },
      { once: true },
    );
    listeners.set(signal, own);
    set = own;
  }
  const s = set;
  if (!s.has(fn)) {
    s.add(fn);
    live++;
  }
  return () => {
    if (s.delete(fn)) live--;
  };
}
