/**
 * Every string, array and map an operation accepts is bounded by its schema (issue 8: "every id and string
 * bounded"), for every operation of the registry, implemented or planned: ids that reach DynamoDB keys stay
 * under the key limits (partition key ≤ 2048 bytes, sort key ≤ 1024 bytes) and no item can outgrow 400 KB
 * from one unbounded field.
 */
import { describe, expect, it } from 'vitest';
import { loadOperations } from '#lib/registry';
import { schemasOf } from '#api/operation';
import { unboundedLeaves } from '../support/schema-walk.ts';

const ops = await loadOperations();

describe('schema bounds', () => {
  it.each(ops.map((op) => [op.operationId, op] as const))('%s: every string, array and record is bounded', (_id, op) => {
    const s = schemasOf(op);
    const leaves = [
      ...(s.path ? unboundedLeaves(s.path).map((l) => `path.${l}`) : []),
      ...(s.query ? unboundedLeaves(s.query).map((l) => `query.${l}`) : []),
      ...(s.body ? unboundedLeaves(s.body).map((l) => `body.${l}`) : []),
    ];
    expect(leaves).toEqual([]);
  });
});
