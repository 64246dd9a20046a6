/** `POST /api/v1/transactions/{transactionId}/tasks`: creates a task, optionally following a key date. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { calendarDate, int32, uuid } from '#api/params';
import { displayName } from '#api/schemas/names';
import { createTask } from '#use-cases/tasks';
import { dataOf } from '#api/responses/common';
import { Task } from '#api/responses/deals';

export default defineOperation({
  operationId: 'createTask',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/tasks',
  access: 'draft',
  summary: 'Creates a task; when linkedMilestoneName names a key date the due date follows it.',
  response: () => dataOf(Task),
  schemas: () => ({
    path: z.object({ transactionId: uuid() }),
    body: z.object({
      title: displayName(300),
      description: z.nullish(z.string().check(z.maxLength(5000))),
      /** A calendar date, or a date-time whose date part is kept as written. */
      dueDate: z.nullish(calendarDate()),
      priority: z.nullish(int32({ min: 0, max: 5 })),
      assigneeUserId: z.nullish(uuid()),
      linkedMilestoneName: z.nullish(z.string().check(z.maxLength(64))),
    }),
  }),
  example: { body: { title: 'Order HOA resale certificate', linkedMilestoneName: 'ClosingDate', priority: 2 } },
  handler: async ({ path, body }, { principal, now }) => ({
    body: { data: await createTask(principal, path.transactionId, body, now) },
  }),
});
