/**
 * Optimistic concurrency for use cases that read a deal, plan writes from what they read, and commit them with
 * a condition that the deal is unchanged (`touchTransaction`'s `expectedVersion`). When another write got in
 * between, the attempt throws `StaleRead` (or DynamoDB cancels it as a `WriteConflict`) and the use case runs
 * again from a fresh read, after a short random pause so racing writers spread out.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { WriteConflict } from '#db/transact';

/** The deal changed between the read and the commit; the attempt is discarded. */
export class StaleRead extends Error {}

/** Attempts before giving up: enough for a handful of writers racing on one deal. */
export const MAX_ATTEMPTS = 8;

/**
 * Runs `attempt` until it neither throws `StaleRead` nor `WriteConflict`, at most `times` times, pausing a random
 * 0–(10 × attempt) ms between tries.
 * @throws `onExhausted()` (e.g. a domain `Conflict`) after `times` discarded attempts; any other error at once
 */
export async function retryStale<T>(attempt: () => Promise<T>, onExhausted: () => Error, times = MAX_ATTEMPTS): Promise<T> {
  for (let i = 1; i <= times; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof StaleRead) && !(err instanceof WriteConflict)) throw err;
      if (i < times) await sleep(Math.random() * 10 * i);
    }
  }
  throw onExhausted();
}
