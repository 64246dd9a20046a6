/** Lambda for the `proposals` group. Its operations are planned: each answers 501 `not_implemented` (see README coverage). */
import { groupHandler } from '#http/pipeline';
import { proposalsOperations } from '#api/manifest/proposals';

export const operations = {};
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = proposalsOperations;
export const handler = groupHandler('proposals', manifest, operations);
