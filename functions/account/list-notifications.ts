/** `GET /api/v1/notifications`: the calling user's notifications. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { boolParam, int32 } from '#api/params';

export default plannedOperation({
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
  planned: 'issue #12 (pages for people outside the team)',
});
