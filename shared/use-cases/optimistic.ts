/**
 * Optimistic concurrency for use cases that read a deal, plan writes from what they read, and commit them with
 * a condition that the deal is unchanged (`touchTransaction`'s `unchangedSince`). When another write got in
 * between, the attempt throws `StaleRead` and the use case runs again from a fresh read.
 */

/** The deal changed between the read and the commit; the attempt is discarded. */
export class StaleRead extends Error {}

/**
 * Runs `attempt` until it does not throw `StaleRead`, at most `times` times.
 * @throws the last `StaleRead`'s replacement: `onExhausted()` (e.g. a domain `Conflict`) after `times` stale reads
 */
export async function retryStale<T>(attempt: () => Promise<T>, onExhausted: () => Error, times = 3): Promise<T> {
  for (let i = 0; i < times; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof StaleRead)) throw err;
    }
  }
  throw onExhausted();
}
