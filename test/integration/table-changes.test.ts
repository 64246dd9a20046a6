/**
 * The edge fuzz suite's "a refused request stored nothing" check (test/support/table-changes.ts) on DynamoDB Local:
 * each kind of item a request could store — of its organization, of another, of none (a consent, a partner) — and
 * each kind of write is reported, nothing else is, and what it reports is what a full-table scan diff reports
 * (test/support/table-snapshot.ts).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchWriteCommand, DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { createOrganization } from '#db/orgs';
import { optOutSms } from '#db/consent';
import { createPartner } from '#db/partners';
import { authenticateAndCount } from '#db/api-keys';
import { useTestTable } from '../support/test-table.ts';
import { storedLines, TableChanges } from '../support/table-changes.ts';
import { snapshot, snapshotDiff } from '../support/table-snapshot.ts';

let changes: TableChanges;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;

/** A task-like item of an organization (it carries `orgId`, so it is in the organization's GSI3 collection). */
const orgItem = (orgId: string, id: string, extra: Record<string, unknown> = {}) => ({ PK: `ORG#${orgId}`, SK: `PROBE#${id}`, entity: 'Probe', orgId, ...extra });
const put = (Item: Record<string, unknown>) => db().send(new PutCommand({ TableName: tableName(), Item }));

beforeAll(async () => {
  const { tableName: name, endpoint } = await useTestTable();
  org = await createOrganization({ name: 'Changes Realty', ownerEmail: 'owner@changes.test' });
  other = await createOrganization({ name: 'Other Changes Realty', ownerEmail: 'owner@other-changes.test' });
  changes = new TableChanges(endpoint, name);
  await changes.start();
  return () => changes.close();
});
beforeEach(async () => {
  await changes.read();
});

describe('TableChanges and storedLines', () => {
  it('start reads from the table’s first write: the organizations made before it are there', async () => {
    const late = new TableChanges(process.env.DYNAMODB_ENDPOINT!, tableName());
    await late.start();
    const lines = storedLines(await late.read());
    late.close();
    expect(lines.some((l) => l.startsWith('+ ') && l.includes(`"orgId":"${org.orgId}"`) && l.includes('"entity":"Organization"'))).toBe(true);
    expect(lines.some((l) => l.includes(`"orgId":"${other.orgId}"`))).toBe(true);
  });

  it('reports an item stored for the organization, and one for the other organization', async () => {
    await put(orgItem(org.orgId, 'a'));
    await put(orgItem(other.orgId, 'b'));
    const lines = storedLines(await changes.read());
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\+ .*"SK":"PROBE#a"/);
    expect(lines[1]).toMatch(new RegExp(`^\\+ .*"orgId":"${other.orgId}"`));
  });

  it('reports items with no orgId: an SMS opt-out (consent) and a partner', async () => {
    await optOutSms('+15125550199', 'STOP', null, new Date());
    const { partnerId } = await createPartner('Changes Partner');
    const lines = storedLines(await changes.read());
    expect(lines.some((l) => l.startsWith('+ ') && l.includes('"PK":"SMSOPTOUT#+15125550199"'))).toBe(true);
    expect(lines.some((l) => l.startsWith('+ ') && l.includes(partnerId))).toBe(true);
    expect(lines.every((l) => !l.includes('"orgId"') || l.includes(partnerId))).toBe(true);
  });

  it('reports a change of an existing item as its old and new image, even deep in a map', async () => {
    await put(orgItem(org.orgId, 'nested', { address: { street: '1 Old St', city: 'Austin' } }));
    await changes.read();
    await db().send(new UpdateCommand({ TableName: tableName(), Key: { PK: `ORG#${org.orgId}`, SK: 'PROBE#nested' }, UpdateExpression: 'SET address.street = :s', ExpressionAttributeValues: { ':s': '2 New St' } }));
    const lines = storedLines(await changes.read());
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^- .*"street":"1 Old St"/);
    expect(lines[1]).toMatch(/^\+ .*"street":"2 New St"/);
  });

  it('reports deletes, transactions and batch writes', async () => {
    await put(orgItem(org.orgId, 'doomed'));
    await changes.read();
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: `ORG#${org.orgId}`, SK: 'PROBE#doomed' } }));
    await db().send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName(), Item: orgItem(org.orgId, 'tx') } }] }));
    await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: [{ PutRequest: { Item: orgItem(other.orgId, 'batch') } }] } }));
    const lines = storedLines(await changes.read());
    expect(lines.map((l) => l.slice(0, 2) + (l.match(/"SK":"([^"]+)"/)?.[1] ?? ''))).toEqual(['- PROBE#doomed', '+ PROBE#tx', '+ PROBE#batch']);
  });

  it('reports nothing for an update that changed nothing, an item put back as it was, or the pipeline’s counters', async () => {
    await put(orgItem(org.orgId, 'same', { n: 1 }));
    await changes.read();
    await db().send(new UpdateCommand({ TableName: tableName(), Key: { PK: `ORG#${org.orgId}`, SK: 'PROBE#same' }, UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': 1 } }));
    await put(orgItem(org.orgId, 'same', { n: 2 }));
    await put(orgItem(org.orgId, 'same', { n: 1 }));
    await authenticateAndCount(org.keys.read, 'read', 'listTransactions');
    const read = await changes.read();
    // The engine recorded the two puts and the key's counters, not the no-op update; none of them stored anything.
    expect(read.filter((c) => c.keys.SK === 'PROBE#same').map((c) => c.newImage?.n)).toEqual([2, 1]);
    expect(read.some((c) => c.keys.SK === 'APIKEY' && c.event === 'MODIFY')).toBe(true);
    expect(storedLines(read)).toEqual([]);
  });

  it('reads every change however many there are (GetRecords pages of 1,000)', async () => {
    const items = Array.from({ length: 1_030 }, (_, i) => orgItem(org.orgId, `many-${i}`));
    for (let i = 0; i < items.length; i += 25) {
      await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }
    expect(storedLines(await changes.read())).toHaveLength(1_030);
    expect(await changes.read()).toEqual([]);
  });

  it('says what a full-table scan diff says', async () => {
    await put(orgItem(org.orgId, 'scan-changed', { n: 1 }));
    await put(orgItem(other.orgId, 'scan-deleted'));
    await changes.read();
    const before = await snapshot(false);
    await put(orgItem(org.orgId, 'scan-new', { list: [], map: {}, tags: new Set(['x', 'y']), deep: { b: [{ z: 1, a: null }] } }));
    await put(orgItem(org.orgId, 'scan-changed', { n: 2 }));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: `ORG#${other.orgId}`, SK: 'PROBE#scan-deleted' } }));
    await optOutSms('+15125550198', 'STOP', org.orgId, new Date());
    const lines = storedLines(await changes.read());
    expect(lines).toHaveLength(5);
    expect([...lines].sort()).toEqual([...snapshotDiff(before, await snapshot(false))].sort());
  });
});
