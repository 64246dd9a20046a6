/** Lambda for the `disclosures` group. Its operations are planned: each answers 501 `not_implemented` (see README coverage). */
import { groupHandler } from '#http/pipeline';
import { disclosuresOperations } from '#api/manifest/disclosures';

export const operations = {};
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = disclosuresOperations;
export const handler = groupHandler('disclosures', manifest, operations);
