/**
 * An operation's handler input is typed from its own schemas: `tsc --noEmit` (the first step of `npm test`)
 * fails if a `@ts-expect-error` below stops being an error, i.e. if a handler could read a field its schema
 * lacks. The runtime assertions check what the pipeline really passes.
 */
import { describe, expect, it } from 'vitest';
import * as z from '#api/zod';
import { defineOperation, isImplemented, plannedOperation, schemasOf, type OperationInput } from '#api/operation';
import { uuidPath } from '#api/params';

const op = defineOperation({
  operationId: 'typeProbe',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/probe',
  access: 'draft',
  summary: 'Type probe.',
  schemas: () => ({ path: uuidPath('transactionId'), body: z.object({ title: z.string(), priority: z.optional(z.number()) }) }),
  handler: async ({ path, body, query }) => {
    const title: string = body.title;
    const priority: number | undefined = body.priority;
    const id: string = path.transactionId;
    // @ts-expect-error the body schema has no `dueDate`
    const due = body.dueDate;
    // @ts-expect-error the path schema has no `taskId`
    const task = path.taskId;
    // @ts-expect-error the operation has no query schema: its query is empty
    const q = query.limit;
    return { body: { title, priority, id, due, task, q } };
  },
});

describe('operation input types', () => {
  it('hands the handler what its schemas parse', async () => {
    const input = { path: { transactionId: '0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70' }, query: {}, body: { title: 'x' } } as OperationInput<ReturnType<typeof op.schemas>>;
    const result = await op.handler!(input, {} as never);
    expect(result.body).toEqual({ title: 'x', priority: undefined, id: input.path.transactionId, due: undefined, task: undefined, q: undefined });
  });

  it('builds schemas once, and a planned operation has no handler', () => {
    expect(schemasOf(op)).toBe(schemasOf(op));
    const planned = plannedOperation({ operationId: 'p', method: 'GET', path: '/api/v1/p', access: 'read', summary: 'P.', planned: 'issue #0' });
    expect(isImplemented(planned)).toBe(false);
    expect(isImplemented(op)).toBe(true);
    expect(planned.idempotent).toBe(false);
  });
});
