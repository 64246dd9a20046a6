/** Lambda for the `messaging` group. Its operations are planned: each answers 501 `not_implemented` (see README coverage). */
import { groupHandler } from '#http/pipeline';
import { messagingOperations } from '#api/manifest/messaging';

export const operations = {};
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = messagingOperations;
export const handler = groupHandler('messaging', manifest, operations);
