/** Lambda for the `messaging` group. Its operations are planned: each answers 501 `not_implemented` (see README coverage). */
import { groupHandler } from '#http/pipeline';

export const operations = {};
export const handler = groupHandler('messaging', operations);
