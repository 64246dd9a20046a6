/** Lambda for the `account` group (own workspace). Deletion, export, devices and notifications answer 501 until built. */
import { groupHandler } from '#http/pipeline';
import { listTransactionStatuses } from './list-transaction-statuses.ts';
import { listOrgUsers } from './list-org-users.ts';

export const operations = { listTransactionStatuses, listOrgUsers };
export const handler = groupHandler('account', operations);
