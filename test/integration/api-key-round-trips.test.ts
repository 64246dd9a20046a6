/**
 * Round trips of the request-path key check on DynamoDB Local, counted by a middleware on the real
 * client: a steady-state `authenticateAndCount` costs exactly one call; only the first request of a
 * window pays a second (the roll), and concurrent first requests fold the finished window once.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { useTestTable } from '../support/test-table.ts';
import { createOrganization } from '#db/orgs';
import { db, tableName } from '#db/client';
import { authenticateAndCount } from '#db/api-keys';

const M = Math.floor(Date.parse('2030-06-01T08:00:00Z') / 60_000);
const at = (minute: number, second = 0) => minute * 60_000 + second * 1000;
const sent: string[] = [];
let org: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  await useTestTable();
  db().middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(context.commandName ?? 'unknown');
      return next(args);
    },
    { step: 'initialize', name: 'countRoundTrips' },
  );
  org = await createOrganization({ name: 'Round Trips Realty', ownerEmail: 'owner@round-trips.test' });
});
beforeEach(() => {
  sent.length = 0;
});

describe('authenticateAndCount round trips', () => {
  it('costs two calls on the first request of a window (update, then the roll transaction)', async () => {
    await authenticateAndCount(org.keys.draft, 'write', 'createTask', at(M));

    expect(sent).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
  });

  it('costs exactly one UpdateItem in steady state, reads and writes alike', async () => {
    await authenticateAndCount(org.keys.draft, 'write', 'createTask', at(M, 10));
    expect(sent).toEqual(['UpdateItemCommand']);

    sent.length = 0;
    await authenticateAndCount(org.keys.draft, 'read', 'listTasks', at(M, 20));
    expect(sent).toEqual(['UpdateItemCommand']);
  });

  it('costs one call to refuse a rate-limited request', async () => {
    for (let i = 0; i < 60; i++) await authenticateAndCount(org.keys.read, 'write', 'createTask', at(M + 20, 30));
    sent.length = 0;

    await expect(authenticateAndCount(org.keys.read, 'write', 'createTask', at(M + 20, 40))).rejects.toMatchObject({ bucket: 'write' });

    expect(sent).toEqual(['UpdateItemCommand']);
  });

  it('costs one call to reject an unknown key', async () => {
    await expect(authenticateAndCount(`mcp_at_${'q'.repeat(43)}`, 'read', 'getHealth', at(M))).rejects.toThrow();

    expect(sent).toEqual(['UpdateItemCommand']);
  });
});

describe('concurrent first requests of a window', () => {
  it('all succeed with distinct counts, and the finished window is folded exactly once', async () => {
    const key = org.keys.actions;
    await authenticateAndCount(key, 'write', 'createTask', at(M + 10));
    await authenticateAndCount(key, 'write', 'createTask', at(M + 10, 5));

    const results = await Promise.all(Array.from({ length: 20 }, () => authenticateAndCount(key, 'write', 'completeTask', at(M + 11))));

    expect(results.map((p) => p.window.writes).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const day = await db().send(
      new GetCommand({ TableName: tableName(), Key: { PK: `ORG#${org.orgId}#USAGE#${results[0].keyId}`, SK: 'DAY#2030-06-01' }, ConsistentRead: true }),
    );
    expect(day.Item).toMatchObject({ calls: 2, op_createTask: 2 });
    expect(day.Item!.op_completeTask).toBeUndefined();
  });
});
