/** `DELETE /api/v1/tasks/{taskId}/comments/{commentId}`: deletes a comment; only its author may (anyone else gets 403 `forbidden`). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid } from '#api/params';
import { deleteTaskComment } from '#use-cases/tasks';
import { deletedOf } from '#api/responses/common';

export default defineOperation({
  operationId: 'deleteTaskComment',
  method: 'DELETE',
  path: '/api/v1/tasks/{taskId}/comments/{commentId}',
  access: 'draft',
  summary: 'Deletes a comment; only its author may.',
  response: () => deletedOf('commentId'),
  uses: ['table:delete'],
  schemas: () => ({ path: z.object({ taskId: uuid(), commentId: uuid() }) }),
  handler: async ({ path }, { principal }) => {
    await deleteTaskComment(principal, path.taskId, path.commentId);
    return { body: { deleted: true, commentId: path.commentId } };
  },
});
