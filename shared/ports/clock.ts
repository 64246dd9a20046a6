/**
 * The request clock. Production reads the system time; tests that exercise time windows (rate limits,
 * idempotency locks, key-date horizons) replace it in-process with `setClock`.
 */
let source: () => number = Date.now;

/** Current time (one read per request; handlers use the request's `now`). */
export const clockNow = (): Date => new Date(source());

/** Replaces the clock; `undefined` restores the system time. @param fn epoch milliseconds */
export function setClock(fn?: () => number): void {
  source = fn ?? Date.now;
}
