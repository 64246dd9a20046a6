/**
 * `authenticateAndCount` against a mocked document client: the exact conditional `UpdateItem` of the fast
 * path, and what each `ConditionalCheckFailedException` (with its ALL_OLD item) turns into.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { ConditionalCheckFailedException, ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { resetDbClient } from '#db/client';
import { authenticateAndCount, KeyRateLimited, KeyRejected } from '#db/api-keys';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'unit-table';
const KEY = `mcp_at_${'k'.repeat(43)}`;
const PK = `APIKEY#${createHash('sha256').update(KEY, 'utf8').digest('hex')}`;
const NOW = Date.parse('2030-01-15T10:00:30Z');
const MINUTE = Math.floor(NOW / 60_000);

const keyItem = (over: Record<string, unknown> = {}) => ({
  PK,
  SK: 'APIKEY',
  entity: 'ApiKey',
  kind: 'org',
  keyId: 'key-1',
  orgId: 'org-1',
  userId: 'user-1',
  name: 'starter draft key',
  scopes: ['read', 'draft'],
  displayPrefix: 'mcp_at_kkkk',
  createdAt: '2030-01-01T00:00:00.000Z',
  rlWin: MINUTE,
  rlR: 3,
  rlW: 7,
  rlErr: 2,
  op_getTransaction: 3,
  op_createTask: 7,
  ...over,
});

/** The error DynamoDB returns for a failed condition with ReturnValuesOnConditionCheckFailure=ALL_OLD. */
const conditionFailed = (old?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: old ? marshall(old) : undefined });

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', TABLE);
  resetDbClient();
  ddb.reset();
});
afterEach(() => vi.unstubAllEnvs());

describe('authenticateAndCount fast path', () => {
  it('sends exactly one conditional UpdateItem keyed by the sha256 of the key', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: keyItem({ rlW: 8, op_createTask: 8 }) });

    const principal = await authenticateAndCount(KEY, 'write', 'createTask', NOW);

    expect(ddb.calls()).toHaveLength(1);
    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 1);
    const input = ddb.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input).toEqual({
      TableName: TABLE,
      Key: { PK, SK: 'APIKEY' },
      UpdateExpression: 'ADD #cnt :one, #op :one',
      ConditionExpression: expect.any(String),
      ExpressionAttributeNames: { '#cnt': 'rlW', '#op': 'op_createTask' },
      ExpressionAttributeValues: { ':one': 1, ':win': MINUTE, ':max': 60 },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    for (const part of ['attribute_exists(PK)', 'attribute_not_exists(revokedAt)', 'rlWin = :win', '#cnt < :max']) {
      expect(input.ConditionExpression).toContain(part);
    }
    expect(principal).toEqual({
      kind: 'org',
      credential: 'key',
      keySk: 'APIKEY',
      orgId: 'org-1',
      keyId: 'key-1',
      userId: 'user-1',
      scopes: ['read', 'draft'],
      keyPk: PK,
      window: { minute: MINUTE, reads: 3, writes: 8, errors: 2, ops: { getTransaction: 3, createTask: 8 } },
    });
  });

  it('counts reads in rlR against the read limit of 300', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: keyItem({ rlR: 4 }) });

    await authenticateAndCount(KEY, 'read', 'getTransaction', NOW);

    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, {
      ExpressionAttributeNames: { '#cnt': 'rlR', '#op': 'op_getTransaction' },
      ExpressionAttributeValues: { ':one': 1, ':win': MINUTE, ':max': 300 },
    });
  });
});

describe('authenticateAndCount on a failed condition', () => {
  it('throws KeyRateLimited without a further call when the same window is at the limit', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(keyItem({ rlW: 60 })));

    const err = await authenticateAndCount(KEY, 'write', 'createTask', NOW).catch((e) => e);

    expect(err).toBeInstanceOf(KeyRateLimited);
    expect(err.bucket).toBe('write');
    expect(ddb.calls()).toHaveLength(1);
  });

  it('rolls an old window in one transaction: reset the key, fold the finished window into its day', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(keyItem({ rlWin: MINUTE - 1 })));
    ddb.on(TransactWriteCommand).resolves({});

    const principal = await authenticateAndCount(KEY, 'write', 'createTask', NOW);

    expect(ddb.calls()).toHaveLength(2);
    expect(ddb).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
    const items = ddb.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;
    expect(items).toHaveLength(2);

    const reset = items[0].Update!;
    expect(reset.Key).toEqual({ PK, SK: 'APIKEY' });
    expect(reset.UpdateExpression).toMatch(/^SET rlWin = :win, rlR = :r, rlW = :w, rlErr = :zero, #op = :one REMOVE #o\d$/);
    expect(reset.ExpressionAttributeNames).toEqual({ '#op': 'op_createTask', '#o0': 'op_getTransaction' });
    expect(reset.ExpressionAttributeValues).toMatchObject({ ':win': MINUTE, ':r': 0, ':w': 1, ':zero': 0, ':one': 1, ':oldWin': MINUTE - 1 });
    expect(reset.ConditionExpression).toContain('attribute_not_exists(revokedAt)');
    expect(reset.ConditionExpression).toContain('rlWin = :oldWin');

    const usage = items[1].Update!;
    expect(usage.Key).toEqual({ PK: 'ORG#org-1#USAGE#key-1', SK: 'DAY#2030-01-15' });
    expect(usage.UpdateExpression).toContain('ADD calls :calls, errors :errors');
    expect(usage.ExpressionAttributeValues).toMatchObject({ ':calls': 10, ':errors': 2 });
    const opCounts = Object.fromEntries(
      Object.entries(usage.ExpressionAttributeNames!)
        .filter(([, attr]) => attr.startsWith('op_'))
        .map(([alias, attr]) => [attr, usage.ExpressionAttributeValues![`:${alias.slice(1)}`]]),
    );
    expect(opCounts).toEqual({ op_getTransaction: 3, op_createTask: 7 });

    expect(principal.window).toEqual({ minute: MINUTE, reads: 0, writes: 1, errors: 0, ops: { createTask: 1 } });
  });

  it('files a window that ended at 23:59 UTC under its own day, not the new one', async () => {
    const now = Date.parse('2030-01-16T00:00:05Z');
    const minute = Math.floor(now / 60_000);
    ddb.on(UpdateCommand).rejects(conditionFailed(keyItem({ rlWin: minute - 1 })));
    ddb.on(TransactWriteCommand).resolves({});

    await authenticateAndCount(KEY, 'read', 'getTransaction', now);

    const items = ddb.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;
    expect(items[1].Update!.Key).toEqual({ PK: 'ORG#org-1#USAGE#key-1', SK: 'DAY#2030-01-15' });
  });

  it('starts the first window of a never-used key without a usage write', async () => {
    const fresh = keyItem();
    for (const k of ['rlWin', 'rlR', 'rlW', 'rlErr', 'op_getTransaction', 'op_createTask']) delete (fresh as Record<string, unknown>)[k];
    ddb.on(UpdateCommand).rejects(conditionFailed(fresh));
    ddb.on(TransactWriteCommand).resolves({});

    await authenticateAndCount(KEY, 'read', 'getHealth', NOW);

    const items = ddb.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;
    expect(items).toHaveLength(1);
    expect(items[0].Update!.ExpressionAttributeValues).toMatchObject({ ':win': MINUTE, ':r': 1, ':w': 0, ':oldWin': -1 });
  });

  it('after losing the roll to a concurrent request, counts on the fast path again', async () => {
    ddb
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed(keyItem({ rlWin: MINUTE - 1 })))
      .resolves({ Attributes: { ...keyItem({ rlR: 0, rlW: 2, rlErr: 0, op_createTask: 2 }), op_getTransaction: 0 } });
    ddb.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] }));

    const principal = await authenticateAndCount(KEY, 'write', 'createTask', NOW);

    expect(ddb.calls().map((c) => c.args[0].constructor.name)).toEqual(['UpdateCommand', 'TransactWriteCommand', 'UpdateCommand']);
    expect(principal.window.writes).toBe(2);
  });

  it('rejects an unknown key (no ALL_OLD item) with one call', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());

    await expect(authenticateAndCount(KEY, 'read', 'getHealth', NOW)).rejects.toBeInstanceOf(KeyRejected);
    expect(ddb.calls()).toHaveLength(1);
  });

  it('rejects a revoked key, even when its window is old (no roll)', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(keyItem({ rlWin: MINUTE - 5, revokedAt: '2030-01-15T09:00:00.000Z' })));

    await expect(authenticateAndCount(KEY, 'write', 'createTask', NOW)).rejects.toBeInstanceOf(KeyRejected);
    expect(ddb).not.toHaveReceivedCommand(TransactWriteCommand);
  });

  it('rethrows errors other than a failed condition', async () => {
    ddb.on(UpdateCommand).rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));

    await expect(authenticateAndCount(KEY, 'read', 'getHealth', NOW)).rejects.toBeInstanceOf(ProvisionedThroughputExceededException);
  });
});
