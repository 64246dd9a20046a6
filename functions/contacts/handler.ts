/** Lambda for the `contacts` group. Its operations are planned: each answers 501 `not_implemented` (see README coverage). */
import { groupHandler } from '#http/pipeline';
import { contactsOperations } from '#api/manifest/contacts';

export const operations = {};
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = contactsOperations;
export const handler = groupHandler('contacts', manifest, operations);
