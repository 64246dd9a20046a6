/**
 * `GET /api/v1/key-dates/upcoming`: open key dates of all deals from today (UTC) through `horizonDays`
 * days ahead, soonest first, at most `limit`.
 */
import type { OperationHandler } from '#http/context';
import { listUpcomingKeyDates as list } from '#db/key-dates';
import { dateOf } from '#domain/calendar';

export const listUpcomingKeyDates: OperationHandler = async ({ query }, { principal, now }) => ({
  body: { data: await list(principal.orgId, dateOf(now), query.horizonDays, query.limit), horizonDays: query.horizonDays, from: dateOf(now) },
});
