/** Lambda for the `key-dates` group. */
import { groupHandler } from '#http/pipeline';
import { listKeyDates } from './list-key-dates.ts';
import { upsertKeyDates } from './upsert-key-dates.ts';
import { updateKeyDate } from './update-key-date.ts';
import { listUpcomingKeyDates } from './list-upcoming-key-dates.ts';

export const operations = { listKeyDates, upsertKeyDates, updateKeyDate, listUpcomingKeyDates };
export const handler = groupHandler('key-dates', operations);
