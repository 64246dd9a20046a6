/** `POST /api/v1/notifications/{notificationId}/read`: marks one of the calling user's notifications read. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { Notification } from '#api/responses/pages';
import { markNotificationRead } from '#db/notifications';
import { NotFound } from '#domain/errors';

export default defineOperation({
  operationId: 'markNotificationRead',
  title: 'Mark a notification read',
  method: 'POST',
  path: '/api/v1/notifications/{notificationId}/read',
  access: 'draft',
  summary: "Marks one of the calling user's notifications read; marking it again keeps the first readAt.",
  designedHere: true,
  schemas: () => ({ path: uuidPath('notificationId') }),
  response: () => dataOf(Notification),
  /** `{data: Notification}` with `readAt` set. 404 when the calling user has no notification of that id. */
  handler: async ({ path }, { principal, now }) => {
    const n = await markNotificationRead(principal.orgId, principal.userId, path.notificationId, now.toISOString());
    if (!n) throw new NotFound('Notification');
    return { body: { data: n } };
  },
});
