/**
 * Write cost of authentication and the one-off index backfill (shared/db/index-backfill.ts) on DynamoDB Local:
 * a key listed on GSI4 (keys only) costs 1 write unit per request, a key still listed on GSI1 (projection ALL, as
 * written before issue 24) costs 2; the backfill moves such keys, takes completed key dates off the open index,
 * gives open tasks their assignee entry and old deals their search tokens, and a second run changes nothing. An
 * email template saved before outlines gets its outline (what a reminder checks a deal against).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { useTestTable } from '../support/test-table.ts';
import { installRoundTripCounter, type RoundTripCounter } from '../../bench/round-trips.ts';
import { db, tableName } from '#db/client';
import { gsi1 } from '#db/keys';
import { createOrganization } from '#db/orgs';
import { apiKeyItem, authenticateAndCount, listApiKeys, newKeyValue } from '#db/api-keys';
import { keyDateItem } from '#db/key-date-items';
import { taskItem, type Task } from '#db/task-items';
import { formatAddress, listTransactions, transactionItem, type Transaction } from '#db/transactions';
import { listOpenTasks } from '#db/tasks';
import { backfillIndexes } from '#db/index-backfill';
import { putEmailTemplate } from '#db/email-templates';
import { findEmailTemplate } from '#use-cases/email-templates';

let counter: RoundTripCounter;
let org: Awaited<ReturnType<typeof createOrganization>>;
const legacyKey = newKeyValue('org');
const deal: Transaction = (() => {
  const propertyAddress = { street: '77 Quillfeather Cv', city: 'Austin', state: 'TX', zip: '78704' };
  return { id: randomUUID(), propertyAddress, address: formatAddress(propertyAddress), transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract', notes: null, createdAt: '2025-05-01T12:00:00.000Z', updatedAt: '2025-05-01T12:00:00.000Z', closedAt: null, version: 0 };
})();
const put = (Item: Record<string, unknown>) => db().send(new PutCommand({ TableName: tableName(), Item }));

/** Write units and GSI write units of one authenticated request (the window already rolled). */
async function authCost(value: string) {
  await authenticateAndCount(value, 'read', 'getTransaction');
  const mark = counter.mark();
  await authenticateAndCount(value, 'read', 'getTransaction');
  const c = counter.capacitySince(mark);
  return { write: c.write, indexWrite: c.indexWrite };
}

beforeAll(async () => {
  await useTestTable();
  counter = installRoundTripCounter(db());
  org = await createOrganization({ name: 'Backfill Realty', ownerEmail: 'owner@backfill.test' });
  // Items as they were written before the new indexes.
  const key = apiKeyItem({ orgId: org.orgId, userId: org.ownerUserId, name: 'legacy', scopes: ['read'], kind: 'org', keyId: randomUUID(), value: legacyKey });
  const { GSI4PK: _pk, GSI4SK: _sk, ...legacy } = key;
  await put({ ...legacy, GSI1PK: gsi1.apiKeys(org.orgId), GSI1SK: key.keyId });
  await put(transactionItem(org.orgId, deal));
  await put({ ...keyDateItem(org.orgId, { transactionId: deal.id, keyDateType: 'ClosingDate', dateValue: '2025-06-01', isCustom: false, label: null, source: null, calculationNotes: null, completedAt: '2025-06-01T10:00:00.000Z', address: deal.address, createdAt: deal.createdAt, updatedAt: deal.createdAt }), GSI1PK: gsi1.keyDates(org.orgId), GSI1SK: `2025-06-01#${deal.id}#ClosingDate` });
  const task: Task = { id: randomUUID(), transactionId: deal.id, title: 'Order survey', description: null, dueDate: '2025-05-20', priority: null, assigneeUserId: org.ownerUserId, linkedMilestoneName: null, dueOffsetDays: null, status: 'open', completedAt: null, completedBy: null, completionNote: null, address: deal.address, createdAt: deal.createdAt, createdBy: null };
  const { GSI2PK: _g2, GSI2SK: _g2s, ...oldTask } = taskItem(org.orgId, task);
  await put(oldTask);
});

describe('authentication write cost and the index backfill', () => {
  it('a key on GSI4 costs 1 write unit per request, a legacy GSI1 key 2, and 1 once the backfill moved it', async () => {
    expect(await authCost(org.keys.read)).toEqual({ write: 1, indexWrite: 0 });
    expect(await authCost(legacyKey)).toEqual({ write: 2, indexWrite: 1 });
    expect((await listApiKeys(org.orgId)).map((k) => k.name)).toContain('legacy');

    const me = { orgId: org.orgId, userId: org.ownerUserId };
    expect((await listTransactions(org.orgId, { q: 'quillfeather', page: 1, pageSize: 10 })).data).toEqual([]);
    expect(await listOpenTasks(me, { limit: 10, assignedTo: 'me' })).toEqual([]);

    const counts = await backfillIndexes(2);
    expect(counts).toMatchObject({ credentials: 1, keyDates: 1, tasks: 1 });
    expect(counts.searchable).toBeGreaterThanOrEqual(1);

    expect(await authCost(legacyKey)).toEqual({ write: 1, indexWrite: 0 });
    expect((await listApiKeys(org.orgId)).filter((k) => k.name === 'legacy')).toHaveLength(1);
    expect((await listTransactions(org.orgId, { q: 'quillfeather', page: 1, pageSize: 10 })).data.map((d) => d.id)).toEqual([deal.id]);
    expect((await listOpenTasks(me, { limit: 10, assignedTo: 'me' })).map((t) => t.title)).toEqual(['Order survey']);
    const kd = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: transactionItem(org.orgId, deal).PK, SK: 'KD#ClosingDate' } }));
    expect(kd.Item?.GSI1PK).toBeUndefined();

    expect(await backfillIndexes(2)).toMatchObject({ credentials: 0, keyDates: 0, tasks: 0 });
  });

  it('gives an email template saved before outlines its outline, once', async () => {
    const id = randomUUID();
    const body = '{{#if reminder.note}}{{reminder.note}}{{/if}} {{keyDates.ClosingDate}}';
    const t = { id, slug: 'old-closing', source: 'organization' as const, name: 'Old closing', subject: 'Closing {{property.address}}', body, description: null, category: null, audience: null, stage: null, side: null, tone: null, isActive: true, mergeFields: ['property.address', 'keyDates.ClosingDate', 'reminder.note'], outline: null, createdAt: deal.createdAt, updatedAt: deal.createdAt };
    await putEmailTemplate(org.orgId, t, null);
    expect((await findEmailTemplate(org.orgId, id))?.outline).toBeNull();

    expect(await backfillIndexes(2)).toMatchObject({ templates: 1 });
    expect((await findEmailTemplate(org.orgId, 'old-closing'))?.outline).toEqual({
      subject: ['property.address'],
      body: [{ block: 'if', field: 'reminder.note', then: ['reminder.note'], else: [] }, 'keyDates.ClosingDate'],
    });
    expect(await backfillIndexes(2)).toMatchObject({ templates: 0 });
  });
});
