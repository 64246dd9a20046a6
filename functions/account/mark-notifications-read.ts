/** `POST /api/v1/notifications/read`: marks all of the calling user's notifications read, optionally up to a time. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dataOf, timestamp } from '#api/responses/common';
import { countUnread, markAllNotificationsRead } from '#db/notifications';

export default defineOperation({
  operationId: 'markNotificationsRead',
  title: 'Mark all notifications read',
  method: 'POST',
  path: '/api/v1/notifications/read',
  access: 'draft',
  summary: "Marks the calling user's unread notifications read, all of them or those created at or before `before`.",
  designedHere: true,
  schemas: () => ({
    body: z.optional(z.object({ before: z.nullish(timestamp().check(z.maxLength(40))) })),
  }),
  example: { body: { before: '2026-11-26T18:00:00Z' } },
  response: () => dataOf(z.object({ marked: z.int().check(z.nonnegative()), readAt: timestamp(), unreadCount: z.int().check(z.nonnegative()) })),
  /**
   * `{data: {marked, readAt, unreadCount}}`: how many were unread and are now read, the `readAt` they got, and how
   * many stay unread (those after `before`). `before` (RFC 3339 with an offset) defaults to now; marking again
   * marks none.
   */
  handler: async ({ body }, { principal, now }) => {
    const readAt = now.toISOString();
    const before = body?.before ? new Date(body.before).toISOString() : readAt;
    const marked = await markAllNotificationsRead(principal.orgId, principal.userId, before, readAt);
    return { body: { data: { marked, readAt, unreadCount: await countUnread(principal.orgId, principal.userId) } } };
  },
});
