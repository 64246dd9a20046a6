/** `POST /api/v1/transactions/{transactionId}/tasks`: creates a task, optionally following a key date. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dateTime, int32, uuid } from '#api/params';
import { createTask } from '#use-cases/tasks';

export default defineOperation({
  operationId: 'createTask',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/tasks',
  access: 'draft',
  summary: 'Creates a task; when linkedMilestoneName names a key date the due date follows it.',
  schemas: () => ({
    path: z.object({ transactionId: uuid() }),
    body: z.object({
      title: z.string().check(z.trim(), z.minLength(1), z.maxLength(300)),
      description: z.nullish(z.string().check(z.maxLength(5000))),
      dueDate: z.nullish(dateTime()),
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
