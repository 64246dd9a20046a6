/**
 * Task comments: `GET` and `POST /api/v1/tasks/{taskId}/comments`, and
 * `DELETE /api/v1/tasks/{taskId}/comments/{commentId}` (author only: anyone else gets 403 `forbidden`).
 */
import type { OperationHandler } from '#http/context';
import { addComment, deleteComment, listComments, NotCommentAuthor } from '#db/tasks';
import { ForbiddenError } from '#http/errors';

export const listTaskComments: OperationHandler = async ({ path }, { principal }) => ({
  body: { data: await listComments(principal.orgId, path.taskId) },
});

export const addTaskComment: OperationHandler = async ({ path, body }, { principal, now }) => ({
  body: { data: await addComment({ orgId: principal.orgId, userId: principal.userId }, path.taskId, body.content, now) },
});

export const deleteTaskComment: OperationHandler = async ({ path }, { principal }) => {
  try {
    await deleteComment({ orgId: principal.orgId, userId: principal.userId }, path.taskId, path.commentId);
  } catch (err) {
    if (err instanceof NotCommentAuthor) throw new ForbiddenError("Only the comment's author can delete it.");
    throw err;
  }
  return { body: { deleted: true, commentId: path.commentId } };
};
