/** Lambda for the `partner` group. Its operations are planned: each answers 501 `not_implemented` (see README coverage). */
import { groupHandler } from '#http/pipeline';
import { partnerOperations } from '#api/manifest/partner';

export const operations = {};
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = partnerOperations;
export const handler = groupHandler('partner', manifest, operations);
