/** `POST /api/v1/tasks/{taskId}/complete`: marks a task complete (emits `task.completed` once). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dateTime, uuidPath } from '#api/params';
import { completeTask } from '#use-cases/tasks';
import { dataOf } from '#api/responses/common';
import { Task } from '#api/responses/deals';

export default defineOperation({
  operationId: 'completeTask',
  method: 'POST',
  path: '/api/v1/tasks/{taskId}/complete',
  access: 'draft',
  summary: 'Marks a task complete (CompleteTaskRequest designed here: optional note).',
  response: () => dataOf(Task),
  designedHere: true,
  schemas: () => ({
    path: uuidPath('taskId'),
    body: z.optional(z.object({ note: z.nullish(z.string().check(z.maxLength(2000))), completedAt: z.nullish(dateTime()) })),
  }),
  example: { body: { note: 'Sent to the title company.' } },
  handler: async ({ path, body }, { principal, now }) => ({
    body: { data: await completeTask(principal, path.taskId, body?.note ?? null, now) },
  }),
});
