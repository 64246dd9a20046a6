/** `GET /api/v1/tasks`: open tasks, soonest due first (`transactionId`, `assignedTo` = user id, `me` or `unassigned`, `limit`). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32, uuid } from '#api/params';
import { listOpenTasks } from '#db/tasks';
import { listOf } from '#api/responses/common';
import { Task } from '#api/responses/deals';

export default defineOperation({
  operationId: 'listTasks',
  method: 'GET',
  path: '/api/v1/tasks',
  access: 'read',
  summary: 'Open tasks, soonest due first.',
  response: () => listOf(Task),
  schemas: () => ({
    query: z.object({
      transactionId: z.optional(uuid()),
      assignedTo: z.optional(z.string().check(z.maxLength(100))),
      limit: z._default(int32({ min: 1, max: 200 }), 50),
    }),
  }),
  example: { query: { assignedTo: 'me', limit: '20' } },
  handler: async ({ query }, { principal }) => ({
    body: { data: await listOpenTasks(principal, query) },
  }),
});
