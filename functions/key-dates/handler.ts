/** Lambda for the `key-dates` group. */
import { groupHandler } from '#http/pipeline';
import { keyDatesOperations } from '#api/manifest/key-dates';
import { listKeyDates } from './list-key-dates.ts';
import { upsertKeyDates } from './upsert-key-dates.ts';
import { updateKeyDate } from './update-key-date.ts';
import { listUpcomingKeyDates } from './list-upcoming-key-dates.ts';

export const operations = { listKeyDates, upsertKeyDates, updateKeyDate, listUpcomingKeyDates };
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = keyDatesOperations;
export const handler = groupHandler('key-dates', manifest, operations);
