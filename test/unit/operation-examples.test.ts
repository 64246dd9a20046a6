/**
 * Every operation module's `example` is a request its own schemas accept (the isolation and fuzz suites start
 * from them, and the reference shows them), and every implemented operation that takes a body has one.
 */
import { describe, expect, it } from 'vitest';
import { isImplemented, schemasOf } from '#api/operation';
import { loadOperations } from '#lib/registry';

const operations = await loadOperations();

describe('operation examples', () => {
  it.each(operations.filter((op) => op.example).map((op) => [op.operationId, op] as const))('%s: its example passes validation', (_id, op) => {
    const schemas = schemasOf(op);
    if (op.example!.query !== undefined) expect(schemas.query?.safeParse(op.example!.query).success).toBe(true);
    if (op.example!.body !== undefined) {
      const parsed = schemas.body?.safeParse(op.example!.body);
      expect(parsed?.success, JSON.stringify(parsed?.error?.issues)).toBe(true);
    }
  });

  it('every implemented operation whose body is required has an example body', () => {
    const missing = operations
      .filter((op) => isImplemented(op) && schemasOf(op).body && !schemasOf(op).body!.safeParse(undefined).success && op.example?.body === undefined)
      .map((op) => op.operationId);
    expect(missing).toEqual([]);
  });
});
