/**
 * Least-privilege DynamoDB actions per Lambda group (a base list every group needs plus per-group additions) and
 * per webhook worker (own lists, at the end). `ServiceFunction.bindTable` turns a list into one IAM statement on
 * the table (and, for API groups, its indexes).
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Operation } from '#api/operation';
import { oauthPk } from '#db/keys';

/** A DynamoDB data-plane action this service grants. `Scan` and `dynamodb:*` are deliberately absent. */
export type DynamoDbAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:Query'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:TransactWriteItems'
  | 'dynamodb:ConditionCheckItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:BatchWriteItem';

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
 * - `BatchWriteItem`: after a transaction that puts a deal or a contact commits, its search-token items are
 *   written and its stale ones removed in batches (shared/db/search-index.ts); any group may create a contact.
 * The OAuth function has this list too (lib/oauth-server.ts): its `PutItem` also publishes the access-token signing
 * key's public half (`OAUTHKEY#<kid>`, shared/db/signing-keys.ts), which every API group reads with `GetItem`.
 */
export const BASE_TABLE_ACCESS: TableAccess = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:UpdateItem',
  'dynamodb:PutItem',
  'dynamodb:TransactWriteItems',
  'dynamodb:ConditionCheckItem',
  'dynamodb:BatchWriteItem',
];

/**
 * Partitions no API group may write, whatever its actions: the access-token signing key's public half
 * (`OAUTHKEY#<kid>`, shared/db/signing-keys.ts), which every group reads to verify OAuth access tokens and only the
 * OAuth function publishes (lib/oauth-server.ts). A group able to write it could publish a key of its own and mint
 * tokens for any organization.
 */
export const OAUTH_FUNCTION_ONLY_PARTITIONS = [oauthPk.signingKey('*')] as const;

/** The item-level DynamoDB actions that write; a transaction's items are checked by these too (IAM judges each item). */
const ITEM_WRITE_ACTIONS: readonly DynamoDbAction[] = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/**
 * An explicit Deny of writes to `OAUTH_FUNCTION_ONLY_PARTITIONS` on `tableArn`, by the request's partition keys
 * (`dynamodb:LeadingKeys`, any of them for a batch). Added to every API group's role (lib/stack.ts): it holds even if a
 * later grant widens the group's access.
 */
export function signingKeyWriteDeny(tableArn: string): iam.PolicyStatement {
  return new iam.PolicyStatement({
    effect: iam.Effect.DENY,
    actions: [...ITEM_WRITE_ACTIONS],
    resources: [tableArn],
    conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...OAUTH_FUNCTION_ONLY_PARTITIONS] } },
  });
}

/**
 * The DynamoDB actions of a group's function: the base list, plus
 * - `DeleteItem` when an operation uses `table:delete` (deletes, also as `Delete` items of a transaction) or
 *   honours `Idempotency-Key` (a 5xx releases the key with `DeleteItem` so the client's retry runs again);
 * - `BatchGetItem` when an operation uses `table:batch-get`.
 * Groups that never delete get no `DeleteItem`, so a bug there cannot remove data.
 * @param ops the group's operations
 */
export function tableAccessOf(ops: readonly Pick<Operation, 'uses' | 'idempotent'>[]): TableAccess {
  const access: DynamoDbAction[] = [...BASE_TABLE_ACCESS];
  if (ops.some((op) => op.idempotent || op.uses.includes('table:delete'))) access.push('dynamodb:DeleteItem');
  if (ops.some((op) => op.uses.includes('table:batch-get'))) access.push('dynamodb:BatchGetItem');
  return access;
}

/**
 * The webhook pipeline's worker functions, each built from `functions/<worker>/handler.ts`. They are not API
 * groups (no routes, not in `lambdaGroups`) and get their own action lists below, not `BASE_TABLE_ACCESS`:
 * they run no middy pipeline (no auth, rate limit or idempotency).
 */
export const WEBHOOK_WORKERS = ['webhook-fanout', 'webhook-delivery'] as const;
export type WebhookWorker = (typeof WEBHOOK_WORKERS)[number];

/**
 * `webhook-fanout` (DynamoDB Streams → SQS), base table only (no GSI access):
 * - `Query`: `listWebhooks` reads the event's organization's subscriptions (`PK = ORG#<orgId>`,
 *   `begins_with(SK, 'WEBHOOK#')`), once per organization per batch.
 * - `PutItem`: `claimDelivery` records each (event, subscription) delivery as pending with a conditional put
 *   (`attribute_not_exists(SK)`, `ReturnValuesOnConditionCheckFailure` to learn a replayed delivery's status).
 * - `GetItem`: `redeliveryMessages` (shared/use-cases/redeliver-webhook.ts) reads each pending redelivery a
 *   `webhook.redelivery_requested` event names (consistent read), for its payload.
 * - `UpdateItem`: the schedule relay (shared/use-cases/schedule-relay.ts) marks a scheduled message, reminder,
 *   export or deletion whose schedule could not be created (one conditional update each).
 * No `DeleteItem` or transactions: fan-out never removes an item.
 * Reading the stream (`DescribeStream`, `GetShardIterator`, `GetRecords`, `ListStreams`) is granted by its
 * event source mapping, on the stream ARN only.
 */
export const WEBHOOK_FANOUT_TABLE_ACCESS: TableAccess = ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'];

/**
 * `webhook-delivery` (SQS → HTTPS POST), base table only (no GSI access):
 * - `GetItem`: `getWebhook` re-reads the subscription (consistent read) once per SQS batch, so a deleted,
 *   paused or re-keyed subscription is honoured.
 * - `PutItem`, `BatchWriteItem`: `putAttempts` writes one attempt item per POST, those of one SQS batch together
 *   (shared/use-cases/delivery-batch.ts; IAM checks `BatchWriteItem` as its own action).
 * - `UpdateItem`: `markDelivery` moves a finished delivery's record to its outcome; `recordWebhookSuccess` /
 *   `recordWebhookFailures` keep the circuit breaker's `consecutiveFailures` (one write per subscription and batch)
 *   and pause the subscription.
 * No `Query` (it never lists), no `DeleteItem` (it never removes data), no transactions.
 */
export const WEBHOOK_DELIVERY_TABLE_ACCESS: TableAccess = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'];

/**
 * Extraction state machine steps (functions/extraction-steps/), base table only (no GSI access). Only the three
 * steps that touch a job get any; the OCR steps (`startOcr`, `getOcrStatus`, `collectBlocks`) get none.
 * shared/db/extraction-jobs.ts reads the job and its document with `GetItem` (consistent), then commits the
 * transition in one `TransactWriteItems` whose items are `Update`s of the job and the document (IAM checks each
 * item's own action: `UpdateItem`) and, when the job finishes, a conditional `Put` of the `extraction.completed`
 * outbox event (`PutItem`). No `DeleteItem`.
 * - `markRunning` (`markJobRunning`): no event, so no `PutItem`.
 * - `extractFields` (`completeJob`), `markFailed` (`failJob`): the event too. `extractFields` also proposes the
 *   key dates a later document of a deal changes (shared/use-cases/proposals.ts): `Query` reads the deal's item
 *   collection (base table), a conditional `Put` creates the proposal.
 */
export const EXTRACTION_STEP_TABLE_ACCESS = {
  markRunning: ['dynamodb:GetItem', 'dynamodb:TransactWriteItems', 'dynamodb:UpdateItem'],
  extractFields: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:TransactWriteItems', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  markFailed: ['dynamodb:GetItem', 'dynamodb:TransactWriteItems', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
} as const satisfies Record<string, TableAccess>;

/**
 * `document-uploaded` (S3 ObjectCreated → job → state machine), base table only: `createJob` reads the document
 * (`GetItem`) and commits the job (`Put`, conditional) with the document's `latestJobId` (`Update`) in one
 * `TransactWriteItems`.
 */
export const DOCUMENT_UPLOADED_TABLE_ACCESS: TableAccess = ['dynamodb:GetItem', 'dynamodb:TransactWriteItems', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];

/**
 * `workspace-purge` (a one-time schedule after the deletion grace period), table and indexes:
 * - `Query`: the organization's item keys on GSI3 (`orgId`), its keys on GSI1, its subscriptions (base table);
 * - `GetItem` / `UpdateItem`: the deletion state and purge progress on the organization item;
 * - `DeleteItem`: webhook subscriptions (conditional delete);
 * - `BatchWriteItem`: deleting the organization's items 25 at a time (IAM checks it as its own action; the purge
 *   only ever sends `DeleteRequest`s, with keys read from the organization's own GSI3 partition).
 */
export const WORKSPACE_PURGE_TABLE_ACCESS: TableAccess = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/**
 * `workspace-export` (a one-time schedule right after the request), table and indexes: `Query` (GSI3 keys),
 * `BatchGetItem` (the items), `GetItem` (export, organization, owner), `UpdateItem` (finishing the export).
 * Nothing that deletes or creates items.
 */
export const WORKSPACE_EXPORT_TABLE_ACCESS: TableAccess = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem', 'dynamodb:UpdateItem'];

/** `report-pdf` (lib/report-builder.ts), base table only: `Query` (the deal's messages). Read-only. */
export const REPORT_PDF_TABLE_ACCESS: TableAccess = ['dynamodb:Query'];

/** `report-zip` (lib/report-builder.ts), base table only: `Query` (the deal's messages), `GetItem` (each document's item). Read-only. */
export const REPORT_ZIP_TABLE_ACCESS: TableAccess = ['dynamodb:Query', 'dynamodb:GetItem'];

/**
 * The messaging workers, each built from `functions/<worker>/handler.ts` (lib/messaging-pipeline.ts). Like the
 * webhook workers they run no middy pipeline and get their own lists, base table only (none queries a GSI).
 */
export const MESSAGING_WORKERS = ['email-events', 'inbound-email', 'inbound-sms', 'scheduled-send', 'public-links', 'message-send', 'sms-events'] as const;
export type MessagingWorker = (typeof MESSAGING_WORKERS)[number];

/**
 * - `email-events` (SES configuration-set events via SNS; shared/use-cases/messaging/delivery-events.ts):
 *   `GetItem` (`findByProviderId` reads the provider reference; `updateCommunicationStatus` reads the message's
 *   reference), `UpdateItem` (the message's status, conditional), `PutItem` (`suppressEmail` after a permanent
 *   bounce or a complaint). No `Query`, no transactions, no `DeleteItem`.
 * - `sms-events` (End User Messaging SMS configuration-set events via SNS; shared/use-cases/messaging/sms-events.ts):
 *   `GetItem` (`findByProviderId`, and the message's reference in `updateCommunicationStatus`), `UpdateItem` (the
 *   text's status, conditional). Nothing else.
 * - `inbound-email` (S3 `inbound/` → receive-email.ts): `GetItem` (reply route, provider reference, the answered
 *   message), `Query` (`getDeal` reads the deal's item collection to match the sender to its contacts),
 *   `TransactWriteItems` + `PutItem` (the message, its reference and provider reference are conditional `Put`s of
 *   one transaction; a proposal of the key dates it states is one more conditional `Put`). Nothing is updated or
 *   deleted.
 * - `inbound-sms` (SNS two-way SMS → receive-sms.ts): `GetItem` (provider reference, SMS route, conversation),
 *   `PutItem` (an opt-out; the message's `Put`s inside the transaction), `DeleteItem` (START lifts an opt-out),
 *   `UpdateItem` (the conversation's count and preview, an `Update` inside the transaction),
 *   `TransactWriteItems`, `Query` (`getDeal`, when a text states a key date as changed: shared/use-cases/proposals.ts).
 * - `scheduled-send` (EventBridge Scheduler → scheduled-email.ts → send-email.ts, which queues): `GetItem` (the
 *   scheduled message, deal head, suppressions, member, mailbox, attached documents, reply token), `Query` (the
 *   member's mailboxes, `listMailAccounts`; a reminder's deal), `UpdateItem` (the scheduled message's and the
 *   reminder's conditional transitions, one inside the queuing transaction), `PutItem` + `TransactWriteItems` (the
 *   queued message, its references, its send and outbox event; the deal's reply address on first use). No `DeleteItem`.
 * - `message-send` (the `message.queued` stream records → deliver-message.ts; `service_email.queued` →
 *   deliver-service-email.ts): `GetItem` (the send or service email, the member's mailbox, attached documents,
 *   suppressions), `UpdateItem` (claiming and giving back the attempt; the message's outcome and the send's end inside
 *   one transaction, a disclosure recipient's `emailStatus` with a service email's end; the scheduled message's end),
 *   `PutItem` + `TransactWriteItems` (the provider reference, a `Put` of that transaction). Reading the stream is granted by its event source mapping.
 * - `public-links` (the public pages, lib/public-routes.ts): `GetItem` (a link by its token's hash, the document,
 *   the deal head, the organization), `UpdateItem` (a shared link's open count), `Query` (a disclosure package's item
 *   collection; the deal's item collection for its portal), `PutItem` + `TransactWriteItems` (a form submission and
 *   its event; a disclosure recipient's view, acknowledgement or download with the activity log and the first view's
 *   event). No `DeleteItem`, no GSI but the portal's list of the deal's packages (GSI1).
 */
export const MESSAGING_WORKER_TABLE_ACCESS: Readonly<Record<MessagingWorker, TableAccess>> = {
  'email-events': ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  'inbound-email': ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:TransactWriteItems'],
  'inbound-sms': ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:UpdateItem', 'dynamodb:TransactWriteItems'],
  'scheduled-send': ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:TransactWriteItems'],
  'public-links': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:TransactWriteItems'],
  'message-send': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:TransactWriteItems'],
  'sms-events': ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
};
