/** `POST /api/v1/tasks/{taskId}/assign`: assigns a task to a member, or unassigns it with null. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { assignTask } from '#use-cases/tasks';
import { dataOf } from '#api/responses/common';
import { Task } from '#api/responses/deals';

export default defineOperation({
  operationId: 'assignTask',
  method: 'POST',
  path: '/api/v1/tasks/{taskId}/assign',
  access: 'draft',
  summary: 'Assigns a task to a member, or unassigns it with null.',
  response: () => dataOf(Task),
  schemas: () => ({ path: uuidPath('taskId'), body: z.object({ assigneeUserId: z.nullable(uuid()) }) }),
  example: { body: { assigneeUserId: null } },
  handler: async ({ path, body }, { principal, now }) => ({
    body: { data: await assignTask(principal, path.taskId, body.assigneeUserId, now) },
  }),
});
