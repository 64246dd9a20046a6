/** `GET /api/v1/notifications`: the calling user's notifications. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { notificationsResponse } from '#api/responses/pages';
import { countUnread, listNotifications } from '#db/notifications';
import { boolParam, int32 } from '#api/params';

export default defineOperation({
  operationId: 'listNotifications',
  method: 'GET',
  path: '/api/v1/notifications',
  access: 'read',
  summary: "The calling user's notifications.",
  designedHere: true,
  schemas: () => ({
    query: z.object({
      limit: z.optional(int32({ min: 1, max: 100 })),
      /** Type not shown in the spec; a boolean here. */
      unreadOnly: z.optional(boolParam()),
    }),
  }),
  example: { query: { limit: 20, unreadOnly: 'true' } },
  response: notificationsResponse,
  /** `{data: Notification[], unreadCount}`, newest first; `limit` defaults to 25. Reading does not mark them read. */
  handler: async ({ query }, { principal }) => ({
    body: {
      data: await listNotifications(principal.orgId, principal.userId, { limit: query.limit ?? 25, unreadOnly: query.unreadOnly ?? false }),
      unreadCount: await countUnread(principal.orgId, principal.userId),
    },
  }),
});
