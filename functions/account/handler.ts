/** Lambda for the `account` group (own workspace). Deletion, export, devices and notifications answer 501 until built. */
import { groupHandler } from '#http/pipeline';
import { accountOperations } from '#api/manifest/account';
import { accountExtrasOperations } from '#api/manifest/account-extras';
import { listTransactionStatuses } from './list-transaction-statuses.ts';
import { listOrgUsers } from './list-org-users.ts';

export const operations = { listTransactionStatuses, listOrgUsers };
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = [...accountOperations, ...accountExtrasOperations];
export const handler = groupHandler('account', manifest, operations);
