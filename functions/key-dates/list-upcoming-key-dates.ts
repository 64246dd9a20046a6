/**
 * `GET /api/v1/key-dates/upcoming`: open key dates of all deals from today (UTC) through `horizonDays`
 * days ahead, soonest first, at most `limit`.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32 } from '#api/params';
import { listUpcomingKeyDates as list } from '#db/key-dates';
import { dateOf } from '#domain/calendar';
import { day } from '#api/responses/common';
import { UpcomingKeyDate } from '#api/responses/deals';

export default defineOperation({
  operationId: 'listUpcomingKeyDates',
  method: 'GET',
  path: '/api/v1/key-dates/upcoming',
  access: 'read',
  summary: 'Key dates across all transactions falling within the horizon, soonest first.',
  response: () => z.object({ data: z.array(UpcomingKeyDate), horizonDays: z.int(), from: day() }),
  schemas: () => ({
    query: z.object({
      horizonDays: z._default(int32({ min: 0, max: 365 }), 14),
      limit: z._default(int32({ min: 1, max: 100 }), 25),
    }),
  }),
  example: { query: { horizonDays: '30' } },
  handler: async ({ query }, { principal, now }) => ({
    body: {
      data: await list(principal.orgId, dateOf(now), query.horizonDays, query.limit),
      horizonDays: query.horizonDays,
      from: dateOf(now),
    },
  }),
});
