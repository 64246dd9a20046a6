/**
 * Least-privilege DynamoDB actions per Lambda group: a base list every group needs plus per-group additions.
 * `ServiceFunction.bindTable` turns a group's list into one IAM statement on the table and its indexes.
 */
import type { LambdaGroup } from '#api/types';

/** A DynamoDB data-plane action this service grants. `Scan` and `dynamodb:*` are deliberately absent. */
export type DynamoDbAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:Query'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:TransactWriteItems'
  | 'dynamodb:ConditionCheckItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:BatchGetItem';

/** The actions one function may call on the table (and, for `Query`, its GSIs). */
export type TableAccess = readonly DynamoDbAction[];

/**
 * Actions every API group needs, whatever its operations do, because the shared middy pipeline runs them:
 * - `GetItem`, `Query`: reads of any entity (the credential itself is read by the auth `UpdateItem`).
 * - `UpdateItem`: authentication and the per-minute rate limit are one conditional `UpdateItem` with
 *   `ReturnValues` on the credential's counter item; idempotency completes its record with `UpdateItem`.
 * - `PutItem`: idempotency claims a key with a conditional `PutItem`; creates are conditional puts.
 * - `TransactWriteItems` + `ConditionCheckItem`: domain writes commit with their outbox event in one
 *   transaction, and rolling a rate-limit window is transactional; a `ConditionCheck` inside a transaction
 *   needs `ConditionCheckItem` (IAM checks each transaction item's own action).
 */
export const BASE_TABLE_ACCESS: TableAccess = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:UpdateItem',
  'dynamodb:PutItem',
  'dynamodb:TransactWriteItems',
  'dynamodb:ConditionCheckItem',
];

/** Added for groups that delete items or read several keys at once. */
const DELETE_AND_BATCH_GET: TableAccess = ['dynamodb:DeleteItem', 'dynamodb:BatchGetItem'];

/**
 * Groups granted `DeleteItem` + `BatchGetItem` on top of the base list, and why:
 * - `tasks`: `deleteTasks` resolves task refs with `BatchGetItem` and deletes tasks/comments (also inside
 *   transactions, where a `Delete` item needs `DeleteItem`).
 * - `messaging`, `documents`, `disclosures`: have (IK) operations; a 5xx releases the idempotency key with
 *   `DeleteItem` so the client's retry runs again. Each also has a planned `DELETE` operation.
 * - `webhooks`, `partner`: planned `DELETE` operations (webhook subscription, partner org user).
 * Other groups (`meta`, `transactions`, `key-dates`, `extractions`, `proposals`, `templates`, `account`,
 * `contacts`) never delete today, so a bug there cannot remove data; grant it when an operation needs it.
 */
export const GROUPS_WITH_DELETES: readonly LambdaGroup[] = [
  'tasks',
  'messaging',
  'documents',
  'disclosures',
  'webhooks',
  'partner',
];

/** The DynamoDB actions `group`'s function is granted: base list, plus deletes/batch reads where listed above. */
export function tableAccessOf(group: LambdaGroup): TableAccess {
  return GROUPS_WITH_DELETES.includes(group) ? [...BASE_TABLE_ACCESS, ...DELETE_AND_BATCH_GET] : BASE_TABLE_ACCESS;
}
