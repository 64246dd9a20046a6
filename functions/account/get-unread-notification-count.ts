/** `GET /api/v1/notifications/unread-count`: count of the calling user's unread notifications. */
import { defineOperation } from '#api/operation';
import { unreadCountResponse } from '#api/responses/pages';
import { countUnread } from '#db/notifications';

export default defineOperation({
  operationId: 'getUnreadNotificationCount',
  method: 'GET',
  path: '/api/v1/notifications/unread-count',
  access: 'read',
  summary: "Count of the calling user's unread notifications.",
  response: unreadCountResponse,
  /** `{data: {unreadCount}}`. */
  handler: async (_input, { principal }) => ({ body: { data: { unreadCount: await countUnread(principal.orgId, principal.userId) } } }),
});
