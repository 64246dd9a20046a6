/**
 * Lambda for the `meta` group; also serves API Gateway's `$default` route, so an unknown route answers
 * 404 `not_found` in the error envelope.
 */
import { groupHandler } from '#http/pipeline';
import { metaOperations } from '#api/manifest/meta';
import { getHealth } from './get-health.ts';
import { getCatalog } from './get-catalog.ts';
import { listNextActions } from './list-next-actions.ts';
import { getUsage } from './get-usage.ts';

export const operations = { getHealth, getCatalog, listNextActions, getUsage };
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = metaOperations;
export const handler = groupHandler('meta', manifest, operations);
