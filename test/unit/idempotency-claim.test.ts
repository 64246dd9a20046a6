/**
 * `claimIdempotencyKey` against a mocked document client: the conditional `PutItem` it sends, and how
 * the ALL_OLD item of a failed condition decides execute / replay / in_flight / other_operation /
 * other_request.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { ConditionalCheckFailedException, InternalServerError } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { resetDbClient } from '#db/client';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '#db/idempotency';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'unit-table';
const NOW = Date.parse('2030-03-01T12:00:00.000Z');
const KEY = 'order-7f3a';
const PK = `ORG#org-1#IDEM#${createHash('sha256').update(KEY).digest('hex')}`;
const FP = 'f'.repeat(64);
const STORED = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"m1"}' };

const oldItem = (over: Record<string, unknown> = {}) => ({
  PK,
  SK: 'IDEM',
  status: 'completed',
  operationId: 'sendTransactionEmail',
  fingerprint: FP,
  lockedUntil: NOW - 1_000,
  ttl: Math.floor(NOW / 1000) + 3600,
  response: STORED,
  ...over,
});
const conditionFailed = (old?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: old ? marshall(old, { removeUndefinedValues: true }) : undefined });

const claim = () => claimIdempotencyKey('org-1', KEY, 'sendTransactionEmail', FP, NOW);

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', TABLE);
  resetDbClient();
  ddb.reset();
});
afterEach(() => vi.unstubAllEnvs());

describe('claimIdempotencyKey', () => {
  it('executes on a free key: one conditional Put with the hashed key, a 60 s lock and a 24 h ttl', async () => {
    ddb.on(PutCommand).resolves({});

    const result = await claim();

    expect(result).toEqual({ kind: 'execute', pk: PK });
    expect(PK).not.toContain(KEY);
    expect(ddb.calls()).toHaveLength(1);
    const input = ddb.commandCalls(PutCommand)[0].args[0].input;
    expect(input.TableName).toBe(TABLE);
    expect(input.Item).toEqual({
      PK,
      SK: 'IDEM',
      status: 'in_progress',
      operationId: 'sendTransactionEmail',
      fingerprint: FP,
      lockedUntil: NOW + 60_000,
      ttl: Math.floor(NOW / 1000) + 86_400,
      orgId: 'org-1',
      entity: 'Idempotency',
    });
    expect(input.ConditionExpression).toContain('attribute_not_exists(PK)');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':nowSec': Math.floor(NOW / 1000), ':now': NOW, ':fp': FP });
    expect(input.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
  });

  it('replays the stored response of a completed identical request', async () => {
    ddb.on(PutCommand).rejects(conditionFailed(oldItem()));

    expect(await claim()).toEqual({ kind: 'replay', response: STORED });
  });

  it('reports in_flight while the identical request still holds the lock', async () => {
    ddb.on(PutCommand).rejects(conditionFailed(oldItem({ status: 'in_progress', response: undefined, lockedUntil: NOW + 30_000 })));

    expect(await claim()).toEqual({ kind: 'in_flight' });
  });

  it('reports other_operation when the key was used for another operation (checked before the body)', async () => {
    ddb.on(PutCommand).rejects(conditionFailed(oldItem({ operationId: 'scheduleTransactionMessage', fingerprint: 'other' })));

    expect(await claim()).toEqual({ kind: 'other_operation' });
  });

  it('reports other_request when the same operation came with another body or path', async () => {
    ddb.on(PutCommand).rejects(conditionFailed(oldItem({ fingerprint: 'e'.repeat(64) })));

    expect(await claim()).toEqual({ kind: 'other_request' });
  });

  it('rethrows a failed condition without an item, and other errors', async () => {
    ddb.on(PutCommand).rejectsOnce(conditionFailed()).rejectsOnce(new InternalServerError({ message: 'boom', $metadata: {} }));

    await expect(claim()).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    await expect(claim()).rejects.toBeInstanceOf(InternalServerError);
  });
});

describe('completing and releasing a claim', () => {
  it('stores the response on complete and deletes the record on release', async () => {
    ddb.on(UpdateCommand).resolves({});
    ddb.on(DeleteCommand).resolves({});

    await completeIdempotencyKey(PK, STORED);
    await releaseIdempotencyKey(PK);

    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: TABLE,
      Key: { PK, SK: 'IDEM' },
      ExpressionAttributeValues: { ':done': 'completed', ':response': STORED },
    });
    expect(ddb).toHaveReceivedCommandWith(DeleteCommand, { TableName: TABLE, Key: { PK, SK: 'IDEM' } });
  });
});
