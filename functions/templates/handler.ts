/** Lambda for the `templates` group. Its operations are planned: each answers 501 `not_implemented` (see README coverage). */
import { groupHandler } from '#http/pipeline';
import { templatesOperations } from '#api/manifest/templates';

export const operations = {};
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = templatesOperations;
export const handler = groupHandler('templates', manifest, operations);
