/**
 * A pool of API keys that keeps the benchmark under the per-key rate limits (`RATE_LIMITS` in
 * `shared/db/api-keys.ts`, unchanged) by spreading requests over many keys.
 *
 * A key is used until it has spent its budget for the current minute window (the limit minus a safety
 * margin), then the next key takes over. Before a key's first timed use in a new window, the pool
 * "primes" it with one `authenticateAndCount` call, so the window roll (one extra `TransactWriteItems`
 * paid once per key per minute) happens outside the timed requests. The number of primes is reported.
 */
import { authenticateAndCount, createApiKey, RATE_LIMITS, type Bucket } from '#db/api-keys';

interface PooledKey {
  value: string;
  /** Minute window this key was last primed in (client clock, same as the server's in this process). */
  win: number;
  used: Record<Bucket, number>;
  priming?: Promise<void>;
}

/** Per-key budget per window: the limit minus a margin for requests that straddle a minute boundary. */
export const KEY_BUDGET: Record<Bucket, number> = { read: RATE_LIMITS.read - 10, write: RATE_LIMITS.write - 10 };

export class KeyPool {
  private readonly keys: PooledKey[];
  private readonly cursor: Record<Bucket, number> = { read: 0, write: 0 };
  /** Window rolls done by priming (outside timed sections). */
  primes = 0;
  /** Times the whole pool was exhausted and the bench waited for the next minute. */
  waits = 0;

  constructor(values: string[]) {
    this.keys = values.map((value) => ({ value, win: -1, used: { read: 0, write: 0 } }));
  }

  /** Number of keys in the pool. */
  get size(): number {
    return this.keys.length;
  }

  /** A key value with budget left in `bucket` for the current minute; its use is counted now. */
  async acquire(bucket: Bucket): Promise<string> {
    let skipped = 0;
    for (;;) {
      const now = Date.now();
      const minute = Math.floor(now / 60_000);
      const k = this.keys[this.cursor[bucket]];
      if (k.priming) {
        await k.priming;
        continue;
      }
      if (k.win !== minute) {
        k.priming = this.prime(k, bucket, now).finally(() => (k.priming = undefined));
        await k.priming;
        continue;
      }
      if (k.used[bucket] < KEY_BUDGET[bucket]) {
        k.used[bucket]++;
        return k.value;
      }
      this.cursor[bucket] = (this.cursor[bucket] + 1) % this.keys.length;
      if (++skipped >= this.keys.length) {
        this.waits++;
        await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
        skipped = 0;
      }
    }
  }

  private async prime(k: PooledKey, bucket: Bucket, now: number): Promise<void> {
    await authenticateAndCount(k.value, bucket, 'benchPrime', now);
    this.primes++;
    k.win = Math.floor(now / 60_000);
    k.used = { read: 0, write: 0 };
    k.used[bucket] = 1;
  }
}

/** Creates `count` API keys with every scope for the organization's owner and returns a pool over them. */
export async function createKeyPool(orgId: string, userId: string, count: number): Promise<KeyPool> {
  const values: string[] = [];
  for (let i = 0; i < count; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, count - i) }, (_, j) => createApiKey({ orgId, userId, name: `bench key ${i + j}`, scopes: ['read', 'draft', 'actions'] })),
    );
    values.push(...batch.map((k) => k.value));
  }
  return new KeyPool(values);
}
