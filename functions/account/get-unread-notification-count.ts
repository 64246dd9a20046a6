/** `GET /api/v1/notifications/unread-count`: count of the calling user's unread notifications. */
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'getUnreadNotificationCount',
  method: 'GET',
  path: '/api/v1/notifications/unread-count',
  access: 'read',
  summary: "Count of the calling user's unread notifications.",
  planned: 'issue #12 (pages for people outside the team)',
});
