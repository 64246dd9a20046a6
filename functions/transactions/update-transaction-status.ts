/**
 * `PATCH /api/v1/transactions/{transactionId}/status`: sets a status of the organization's vocabulary and
 * runs its cascade (tasks created, key dates shifted, `transaction.closed` on a closed status).
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { changeTransactionStatus } from '#use-cases/change-transaction-status';
import { InvalidInput } from '#domain/errors';
import { day } from '#api/responses/common';
import { Deal, Task } from '#api/responses/deals';

export default defineOperation({
  operationId: 'updateTransactionStatus',
  method: 'PATCH',
  path: '/api/v1/transactions/{transactionId}/status',
  access: 'actions',
  summary: "Sets a status of the organization's vocabulary and runs its cascade.",
  /** Moves the deal's reminders that follow a key date it changes (their schedules). */
  response: () => z.object({ data: Deal, changed: z.boolean(), cascade: z.object({ tasksCreated: z.array(Task), keyDatesShifted: z.array(z.object({ keyDateType: z.string(), from: day(), to: day() })) }) }),
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({ status: z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))) }),
  }),
  example: { body: { status: 'Clear to Close' } },
  handler: async ({ path, body }, { principal, now }) => {
    if (body.status === null) throw new InvalidInput({ status: 'is required; a transaction always has a status' });
    const result = await changeTransactionStatus(principal, path.transactionId, body.status, now);
    return { body: { data: result.transaction, changed: result.changed, cascade: result.cascade } };
  },
});
