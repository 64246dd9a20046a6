/**
 * Idempotency records for operations marked (IK) (spec "Errors": `Idempotency-Key`).
 * Item: `PK = ORG#<orgId>#IDEM#<sha256(key)>`, `SK = IDEM`; retained 24 h by TTL.
 * States: `in_progress` (a lock that expires after `LOCK_MS`, so a crashed request does not block the key
 * forever) → `completed` with the stored response, replayed verbatim.
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from '#db/client';
import { idempotencyPk } from '#db/keys';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** How long an in-flight request holds its key before a retry may take over (ms). */
export const LOCK_MS = 60_000;

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

interface IdempotencyItem {
  PK: string;
  SK: 'IDEM';
  status: 'in_progress' | 'completed';
  operationId: string;
  fingerprint: string;
  lockedUntil: number;
  ttl: number;
  response?: StoredResponse;
}

/** Outcome of claiming a key: run the operation, or replay, or refuse. */
export type Claim =
  | { kind: 'execute'; pk: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in_flight' }
  | { kind: 'other_operation' }
  | { kind: 'other_request' };

/** SHA-256 over the request's identity (method, concrete path, raw body). */
export const requestFingerprint = (method: string, path: string, body: string | undefined) =>
  createHash('sha256').update(`${method}\n${path}\n${body ?? ''}`).digest('hex');

/**
 * Claims `key` for this request with one conditional `PutItem`.
 * @param now epoch milliseconds
 */
export async function claimIdempotencyKey(
  orgId: string,
  key: string,
  operationId: string,
  fingerprint: string,
  now = Date.now(),
): Promise<Claim> {
  const pk = idempotencyPk(orgId, createHash('sha256').update(key).digest('hex'));
  const item: IdempotencyItem = {
    PK: pk,
    SK: 'IDEM',
    status: 'in_progress',
    operationId,
    fingerprint,
    lockedUntil: now + LOCK_MS,
    ttl: Math.floor(now / 1000) + IDEMPOTENCY_TTL_SECONDS,
  };
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...item, orgId, entity: 'Idempotency' },
        // Free, expired (TTL deletion lags), or an abandoned lock of the same request.
        ConditionExpression:
          'attribute_not_exists(PK) OR #ttl < :nowSec OR (#status = :inProgress AND lockedUntil < :now AND fingerprint = :fp)',
        ExpressionAttributeNames: { '#ttl': 'ttl', '#status': 'status' },
        ExpressionAttributeValues: { ':nowSec': Math.floor(now / 1000), ':inProgress': 'in_progress', ':now': now, ':fp': fingerprint },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { kind: 'execute', pk };
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException) || !err.Item) throw err;
    const old = unmarshall(err.Item) as IdempotencyItem;
    if (old.operationId !== operationId) return { kind: 'other_operation' };
    if (old.fingerprint !== fingerprint) return { kind: 'other_request' };
    if (old.status === 'completed' && old.response) return { kind: 'replay', response: old.response };
    return { kind: 'in_flight' };
  }
}

/** Stores the response of a claimed key for verbatim replay. */
export async function completeIdempotencyKey(pk: string, response: StoredResponse): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: pk, SK: 'IDEM' },
      UpdateExpression: 'SET #status = :done, #response = :response',
      ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
      ExpressionAttributeValues: { ':done': 'completed', ':response': response },
    }),
  );
}

/** Frees a claimed key after a 5xx, so the client's retry runs the operation again. */
export async function releaseIdempotencyKey(pk: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: pk, SK: 'IDEM' } }));
}
