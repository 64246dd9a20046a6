/**
 * Bundling alias for `mnemonist/lru-cache` in Lambda bundles. Its only user there is the DynamoDB client's endpoint
 * cache (`@aws-sdk/endpoint-cache`, built for endpoint discovery, which this service leaves off); mnemonist's
 * typed-array LRU and its `obliterator` dependency weigh ~7 KB minified in every function. This is the same
 * least-recently-used cache, with the methods `EndpointCache` calls, on a `Map` (whose order is insertion order).
 * Used only by esbuild (lib/service-function.ts and bench/bundles.ts); test/unit/bundling-lru-cache.test.ts
 * checks it against mnemonist.
 */
export default class LRUCache<K, V> {
  readonly #items = new Map<K, V>();

  /** @param capacity the most entries kept; setting one more evicts the least recently used */
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#items.size;
  }

  /** The value, marked most recently used. */
  get(key: K): V | undefined {
    if (!this.#items.has(key)) return undefined;
    const value = this.#items.get(key)!;
    this.#items.delete(key);
    this.#items.set(key, value);
    return value;
  }

  /** The value, without changing its recency. */
  peek(key: K): V | undefined {
    return this.#items.get(key);
  }

  has(key: K): boolean {
    return this.#items.has(key);
  }

  /** Stores the value as most recently used, evicting the least recently used entry past `capacity`. */
  set(key: K, value: V): void {
    this.#items.delete(key);
    this.#items.set(key, value);
    if (this.#items.size > this.capacity) this.#items.delete(this.#items.keys().next().value as K);
  }

  clear(): void {
    this.#items.clear();
  }
}
