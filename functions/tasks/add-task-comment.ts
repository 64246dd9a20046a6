/** `POST /api/v1/tasks/{taskId}/comments`: adds a comment authored by the calling user. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { addTaskComment } from '#use-cases/tasks';
import { dataOf } from '#api/responses/common';
import { TaskComment } from '#api/responses/deals';

export default defineOperation({
  operationId: 'addTaskComment',
  method: 'POST',
  path: '/api/v1/tasks/{taskId}/comments',
  access: 'draft',
  summary: 'Adds a comment authored by the calling user.',
  response: () => dataOf(TaskComment),
  schemas: () => ({
    path: uuidPath('taskId'),
    body: z.object({ content: z.string().check(z.trim(), z.minLength(1), z.maxLength(5000)) }),
  }),
  example: { body: { content: 'Lender confirmed the appraisal is ordered.' } },
  handler: async ({ path, body }, { principal, now }) => ({
    body: { data: await addTaskComment(principal, path.taskId, body.content, now) },
  }),
});
