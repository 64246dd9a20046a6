/**
 * The gathering of one SQS batch's entries (shared/use-cases/batch-gather.ts): one write once every message has
 * handed in or skipped, or `LINGER_MS` after the first entry; later entries gathered again; a write's failure is each
 * of its entries'.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gather, LINGER_MS } from '#use-cases/batch-gather';

afterEach(() => {
  vi.useRealTimers();
});

/** A gather of `size` whose writes are recorded and answer each entry doubled. */
function doubling(size: number) {
  const writes: number[][] = [];
  const g = gather<number, number>(size, (entries) => {
    writes.push(entries);
    return entries.map(async (n) => n * 2);
  });
  return { g, writes };
}

describe('gather', () => {
  it('writes once when every message has handed in or skipped, and answers each entry with its own result', async () => {
    const { g, writes } = doubling(3);
    const a = g.add(1);
    g.skip();
    expect(writes).toEqual([]);
    const b = g.add(2);
    expect(await Promise.all([a, b])).toEqual([2, 4]);
    expect(writes).toEqual([[1, 2]]);
  });

  it('writes what waits after LINGER_MS, and gathers later entries into a second write', async () => {
    vi.useFakeTimers();
    const { g, writes } = doubling(3);
    const a = g.add(1);
    await vi.advanceTimersByTimeAsync(LINGER_MS - 1);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([[1]]);
    expect(await a).toBe(2);
    const b = g.add(2);
    const c = g.add(3); // the last message: written at once
    expect(await Promise.all([b, c])).toEqual([4, 6]);
    expect(writes).toEqual([[1], [2, 3]]);
  });

  it('writes nothing when every message skipped', () => {
    const { g, writes } = doubling(2);
    g.skip();
    g.skip();
    expect(writes).toEqual([]);
  });

  it('rejects every entry of a write that throws, and each entry with its own failed promise', async () => {
    const throwing = gather<number, number>(2, () => {
      throw new Error('no table');
    });
    const results = await Promise.allSettled([throwing.add(1), throwing.add(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const partial = gather<number, number>(2, (entries) => entries.map(async (n) => (n === 1 ? Promise.reject(new Error('one')) : n)));
    const [one, two] = await Promise.allSettled([partial.add(1), partial.add(2)]);
    expect(one).toMatchObject({ status: 'rejected', reason: { message: 'one' } });
    expect(two).toEqual({ status: 'fulfilled', value: 2 });
  });
});
