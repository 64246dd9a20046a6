/**
 * lib/bundling/lru-cache.ts, the Lambda bundles' stand-in for `mnemonist/lru-cache`, behaves as mnemonist does for
 * the calls `@aws-sdk/endpoint-cache` makes: the same answers to the same sequence of get/peek/has/set/clear.
 */
import { describe, expect, it } from 'vitest';
import MnemonistLru from 'mnemonist/lru-cache';
import LRUCache from '../../lib/bundling/lru-cache.ts';

/** A seeded generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('bundling LRU cache', () => {
  it('evicts the least recently used entry; get refreshes recency, peek does not', () => {
    const c = new LRUCache<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.peek('a')).toBe(1); // does not refresh a
    c.set('c', 3);
    expect([c.has('a'), c.has('b'), c.has('c')]).toEqual([false, true, true]);
    expect(c.get('b')).toBe(2); // refreshes b
    c.set('d', 4);
    expect([c.has('b'), c.has('c'), c.has('d')]).toEqual([true, false, true]);
    c.clear();
    expect(c.size).toBe(0);
  });

  it('answers like mnemonist for 5,000 random operations on a small key space', () => {
    const next = random(8);
    const ours = new LRUCache<string, number>(4);
    const theirs = new MnemonistLru<string, number>(4);
    for (let i = 0; i < 5_000; i++) {
      const key = `k${Math.floor(next() * 7)}`;
      const op = Math.floor(next() * 5);
      if (op === 0) {
        ours.set(key, i);
        theirs.set(key, i);
      } else if (op === 1) expect(ours.get(key), `get ${key} at ${i}`).toBe(theirs.get(key));
      else if (op === 2) expect(ours.peek(key), `peek ${key} at ${i}`).toBe(theirs.peek(key));
      else if (op === 3) expect(ours.has(key), `has ${key} at ${i}`).toBe(theirs.has(key));
      else if (next() < 0.02) {
        ours.clear();
        theirs.clear();
      }
      expect(ours.size).toBe(theirs.size);
    }
  });
});
