/** `GET /api/v1/tasks/{taskId}/comments`: a task's comment thread, oldest first. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { listTaskComments } from '#use-cases/tasks';

export default defineOperation({
  operationId: 'listTaskComments',
  method: 'GET',
  path: '/api/v1/tasks/{taskId}/comments',
  access: 'read',
  summary: "A task's comment thread, oldest first.",
  schemas: () => ({ path: uuidPath('taskId') }),
  handler: async ({ path }, { principal }) => ({
    body: { data: await listTaskComments(principal.orgId, path.taskId) },
  }),
});
