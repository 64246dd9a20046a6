/**
 * What the concurrent messages of one SQS batch of the delivery worker hand in, gathered so one write serves them all
 * (shared/use-cases/delivery-batch.ts: the attempt items and visibility changes; delivery-breaker.ts: the breaker's
 * counts). The entries handed in so far are written when every message of the batch has handed in its entry or said
 * it has none, or `LINGER_MS` after the first entry waits; entries handed in after that are gathered again.
 */

/** Longest wait of an entry for the rest of its batch, in ms (a slow receiver must not hold the others long). */
export const LINGER_MS = 1000;

export interface Gather<T, R> {
  /** Hands in one message's entry. @returns what the write made of it, once written @throws that write's error */
  add(entry: T): Promise<R>;
  /** A message that hands in nothing: the batch stops waiting for it. */
  skip(): void;
}

/**
 * A gather over a batch of `size` messages, each calling exactly one of `add` and `skip`, concurrently.
 * @param write writes the entries gathered (in the order they came) and gives one promise per entry, in that order
 */
export function gather<T, R>(size: number, write: (entries: T[]) => Promise<R>[]): Gather<T, R> {
  const waiting: { entry: T; resolve: (r: R) => void; reject: (err: unknown) => void }[] = [];
  let open = size;
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting.splice(0);
    if (!batch.length) return;
    let results: Promise<R>[];
    try {
      results = write(batch.map((w) => w.entry));
    } catch (err) {
      results = batch.map(() => Promise.reject(err));
    }
    batch.forEach((w, i) => results[i].then(w.resolve, w.reject));
  };
  const settle = () => {
    open--;
    if (open <= 0) flush();
  };

  return {
    add(entry) {
      const result = new Promise<R>((resolve, reject) => waiting.push({ entry, resolve, reject }));
      timer ??= setTimeout(flush, LINGER_MS);
      settle();
      return result;
    },
    skip: settle,
  };
}
