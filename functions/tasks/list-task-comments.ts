/** `GET /api/v1/tasks/{taskId}/comments`: a task's comment thread, oldest first. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { listTaskComments } from '#use-cases/tasks';
import { listOf } from '#api/responses/common';
import { TaskComment } from '#api/responses/deals';

export default defineOperation({
  operationId: 'listTaskComments',
  method: 'GET',
  path: '/api/v1/tasks/{taskId}/comments',
  access: 'read',
  summary: "A task's comment thread, oldest first.",
  response: () => listOf(TaskComment),
  schemas: () => ({ path: uuidPath('taskId') }),
  handler: async ({ path }, { principal }) => ({
    body: { data: await listTaskComments(principal.orgId, path.taskId) },
  }),
});
