/**
 * Rate limiting and usage accounting on DynamoDB Local, with explicit request times: a key's fixed
 * one-minute windows (60 writes / 300 reads, spec "Limits"), the fold of a finished window into the daily
 * usage item when the next window starts, error counting, and revocation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { useTestTable } from '../support/test-table.ts';
import { createOrganization } from '#db/orgs';
import { db, tableName } from '#db/client';
import { authenticateAndCount, countError, KeyRateLimited, KeyRejected, listApiKeys, revokeApiKey } from '#db/api-keys';
import { readUsage } from '#db/usage';

/** 2030-01-15T10:00:00Z as a minute number, and a time inside minute `m`. */
const M = Math.floor(Date.parse('2030-01-15T10:00:00Z') / 60_000);
const at = (minute: number, second = 0) => minute * 60_000 + second * 1000;
const newOrg = () => createOrganization({ name: 'Limits Realty', ownerEmail: `o+${Math.random().toString(36).slice(2)}@example.test` });

beforeAll(async () => {
  await useTestTable();
});

describe('fixed-window rate limit and usage fold', () => {
  it('allows 60 writes in a minute, refuses the 61st, keeps reads, and folds the window at the next minute', async () => {
    const org = await newOrg();
    const key = org.keys.draft;

    for (let i = 0; i < 60; i++) {
      const op = i < 40 ? 'createTask' : 'addTaskComment';
      const p = await authenticateAndCount(key, 'write', op, at(M, i % 60));
      expect(p.window.writes).toBe(i + 1);
    }
    await expect(authenticateAndCount(key, 'write', 'createTask', at(M, 59))).rejects.toBeInstanceOf(KeyRateLimited);
    const reader = await authenticateAndCount(key, 'read', 'getTransaction', at(M, 59));
    expect(reader.window).toMatchObject({ minute: M, reads: 1, writes: 60 });
    expect(reader.window.ops).toEqual({ createTask: 40, addTaskComment: 20, getTransaction: 1 });

    const next = await authenticateAndCount(key, 'write', 'createTask', at(M + 1, 1));

    expect(next.window).toEqual({ minute: M + 1, reads: 0, writes: 1, errors: 0, ops: { createTask: 1 } });
    const day = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: `ORG#${org.orgId}#USAGE#${next.keyId}`, SK: 'DAY#2030-01-15' } }));
    expect(day.Item).toMatchObject({ calls: 61, errors: 0, op_createTask: 40, op_addTaskComment: 20, op_getTransaction: 1, day: '2030-01-15', entity: 'UsageDay' });
    expect(day.Item!.ttl).toBe(Date.parse('2030-01-15') / 1000 + 90 * 86_400);

    const usage = await readUsage(next, 1, at(M + 1, 2));
    expect(usage.totalCalls).toBe(62);
    expect(usage.daily).toEqual([{ date: '2030-01-15', calls: 62, errors: 0 }]);
    expect(usage.topOperations).toEqual([
      { operation: 'createTask', calls: 41 },
      { operation: 'addTaskComment', calls: 20 },
      { operation: 'getTransaction', calls: 1 },
    ]);
  });

  it('counts reads up to 300 per window independently of writes', async () => {
    const org = await newOrg();
    await authenticateAndCount(org.keys.read, 'write', 'createTask', at(M));
    const reads = await Promise.all(Array.from({ length: 299 }, () => authenticateAndCount(org.keys.read, 'read', 'listTasks', at(M, 10))));

    expect(Math.max(...reads.map((p) => p.window.reads))).toBe(299);
    await authenticateAndCount(org.keys.read, 'read', 'listTasks', at(M, 20));
    await expect(authenticateAndCount(org.keys.read, 'read', 'listTasks', at(M, 30))).rejects.toMatchObject({ bucket: 'read' });
    // 299 concurrent conditional updates of one item queue up on DynamoDB Local: room for a loaded machine.
  }, 120_000);

  it('adds each window it folds: two finished windows on the same day sum up', async () => {
    const org = await newOrg();
    const key = org.keys.actions;
    await authenticateAndCount(key, 'write', 'createTask', at(M));
    await authenticateAndCount(key, 'read', 'listTasks', at(M + 1));
    await authenticateAndCount(key, 'read', 'listTasks', at(M + 1, 5));
    const p = await authenticateAndCount(key, 'read', 'getUsage', at(M + 2));

    const day = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: `ORG#${org.orgId}#USAGE#${p.keyId}`, SK: 'DAY#2030-01-15' } }));
    expect(day.Item).toMatchObject({ calls: 3, op_createTask: 1, op_listTasks: 2 });
  });

  it('counts errors in the running window and folds them into the day', async () => {
    const org = await newOrg();
    const key = org.keys.draft;
    const first = await authenticateAndCount(key, 'write', 'createTask', at(M));
    await countError(first);
    await countError(first);

    const again = await authenticateAndCount(key, 'read', 'getTransaction', at(M, 30));
    expect(again.window.errors).toBe(2);
    const next = await authenticateAndCount(key, 'read', 'getTransaction', at(M + 1));
    const usage = await readUsage(next, 1, at(M + 1, 1));

    expect(usage).toMatchObject({ totalCalls: 3, errorCount: 2, errorRate: 0.6667 });
  });

  it('does not count an error against a window that has already rolled', async () => {
    const org = await newOrg();
    const old = await authenticateAndCount(org.keys.read, 'read', 'getTransaction', at(M));
    const current = await authenticateAndCount(org.keys.read, 'read', 'getTransaction', at(M + 1));

    await countError(old);

    const after = await authenticateAndCount(org.keys.read, 'read', 'getTransaction', at(M + 1, 10));
    expect(after.window.errors).toBe(0);
    expect(current.window.minute).toBe(M + 1);
  });
});

describe('key rejection', () => {
  it('rejects an unknown key', async () => {
    await expect(authenticateAndCount(`mcp_at_${'z'.repeat(43)}`, 'read', 'getHealth', at(M))).rejects.toBeInstanceOf(KeyRejected);
  });

  it('rejects a revoked key in its running window and in a new one', async () => {
    const org = await newOrg();
    const p = await authenticateAndCount(org.keys.actions, 'read', 'getHealth', at(M));
    const keys = await listApiKeys(org.orgId);
    expect(keys.find((k) => k.keyId === p.keyId)?.name).toBe('starter actions key');

    expect(await revokeApiKey(org.orgId, p.keyId)).toBe(true);

    await expect(authenticateAndCount(org.keys.actions, 'read', 'getHealth', at(M, 30))).rejects.toBeInstanceOf(KeyRejected);
    await expect(authenticateAndCount(org.keys.actions, 'write', 'createTask', at(M + 5))).rejects.toBeInstanceOf(KeyRejected);
    await expect(authenticateAndCount(org.keys.read, 'read', 'getHealth', at(M + 5))).resolves.toMatchObject({ orgId: org.orgId });
  });

  it('revokes only keys of the given organization', async () => {
    const [a, b] = await Promise.all([newOrg(), newOrg()]);
    const keyOfA = (await listApiKeys(a.orgId))[0];

    expect(await revokeApiKey(b.orgId, keyOfA.keyId)).toBe(false);
    expect((await listApiKeys(a.orgId)).find((k) => k.keyId === keyOfA.keyId)?.revokedAt).toBeUndefined();
  });
});
