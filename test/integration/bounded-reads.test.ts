/**
 * The organization-wide reads of issue 24 on DynamoDB Local read a bounded number of items whatever the
 * organization's size: a small and a 3× larger organization, seeded by the bench's builder-made items
 * (bench/scale-seed.ts), are read through the repositories while a middleware on the document client
 * (bench/round-trips.ts) counts the items DynamoDB evaluated (`ScannedCount`, items of Get/BatchGet). Each read is
 * also checked against the answer computed from everything stored, so a bounded but wrong read fails too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestTable } from '../support/test-table.ts';
import { installRoundTripCounter, type RoundTripCounter } from '../../bench/round-trips.ts';
import { seedOrganization, type SeededOrg } from '../../bench/scale-seed.ts';
import { db, tableName } from '#db/client';
import { gsi1 } from '#db/keys';
import { createOrganization } from '#db/orgs';
import { findDealsByAddress, listTransactions, queryAll } from '#db/transactions';
import { listUpcomingKeyDates } from '#db/key-dates';
import { listOpenTasks } from '#db/tasks';
import { listContacts } from '#db/contacts';
import { byDue } from '#db/transactions';
import { toTask } from '#db/task-items';
import { addDays } from '#domain/calendar';

const TODAY = '2026-11-27';
const SHAPE = { tasksPerDeal: 6, activityPerDeal: 1, documentsPerDeal: 0, messagesPerDeal: 0 };

interface Org {
  orgId: string;
  userId: string;
  seeded: SeededOrg;
}
let small: Org;
let big: Org;
let counter: RoundTripCounter;

const seed = async (deals: number, contacts: number): Promise<Org> => {
  const o = await createOrganization({ name: `Bounded ${deals}`, ownerEmail: `owner-${deals}@bounded.test` });
  return { orgId: o.orgId, userId: o.ownerUserId, seeded: await seedOrganization(o.orgId, o.ownerUserId, { deals, contacts, ...SHAPE }, TODAY, () => undefined, 8) };
};

/** Runs `read` for each organization in turn (the counter sees one read at a time) and returns each answer with the number of items DynamoDB evaluated for it. */
async function eachOrg<T>(read: (o: Org) => Promise<T>): Promise<{ value: T; items: number }[]> {
  const out: { value: T; items: number }[] = [];
  for (const o of [small, big]) out.push(await counted(() => read(o)));
  return out;
}

/** Runs `read` and returns its answer with the number of items DynamoDB evaluated for it. */
async function counted<T>(read: () => Promise<T>): Promise<{ value: T; items: number }> {
  const mark = counter.mark();
  const value = await read();
  return { value, items: counter.capacitySince(mark).scanned };
}

beforeAll(async () => {
  await useTestTable();
  counter = installRoundTripCounter(db());
  small = await seed(20, 20);
  big = await seed(60, 60);
}, 600_000); // 9 s alone; 240 s in one full run on 2 cores, with the fuzz files beside it on the same DynamoDB Local

describe('bounded organization-wide reads', () => {
  it('upcoming key dates read one page of open dates, soonest first, at any size', async () => {
    const reads = await eachOrg((o) => listUpcomingKeyDates(o.orgId, TODAY, 180, 10));
    for (const r of reads) {
      expect(r.value).toHaveLength(10);
      expect(r.items).toBeLessThanOrEqual(10);
    }
    const all = await queryAll({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.keyDates(big.orgId) } });
    const expected = all.filter((k) => k.dateValue >= TODAY && k.dateValue <= addDays(TODAY, 180)).sort((a, b) => String(a.GSI1SK).localeCompare(String(b.GSI1SK))).slice(0, 10);
    expect(reads[1].value.map((k) => `${k.transactionId}/${k.keyDateType}`)).toEqual(expected.map((k) => `${k.transactionId}/${k.keyDateType}`));
  });

  it('open tasks (all, and of one assignee) read one page of open tasks at any size', async () => {
    for (const assignedTo of [undefined, 'me', 'unassigned']) {
      const reads = await eachOrg((o) => listOpenTasks({ orgId: o.orgId, userId: o.userId }, { limit: 8, assignedTo }));
      for (const r of reads) {
        expect(r.value).toHaveLength(8);
        expect(r.items).toBeLessThanOrEqual(8);
        r.value.forEach((t) => expect(t.status).toBe('open'));
      }
      const mine = reads[1].value.map((t) => t.assigneeUserId);
      if (assignedTo === 'me') expect(new Set(mine)).toEqual(new Set([big.userId]));
      if (assignedTo === 'unassigned') expect(new Set(mine)).toEqual(new Set([null]));
    }
    const open = (await queryAll({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.openTasks(big.orgId) } })).map(toTask).sort(byDue);
    const firstPage = await listOpenTasks({ orgId: big.orgId, userId: big.userId }, { limit: 15 });
    expect(firstPage.map((t) => t.dueDate)).toEqual(open.slice(0, 15).map((t) => t.dueDate));
  });

  it('deal search by a word reads the page it returns, newest deal first, at any size', async () => {
    const reads = await eachOrg((o) => listTransactions(o.orgId, { q: 'austin', page: 1, pageSize: 3 }));
    for (const r of reads) {
      expect(r.value.data).toHaveLength(3);
      expect(r.value.hasMore).toBe(true);
      // 4 token items (page + 1) and their 4 deals.
      expect(r.items).toBeLessThanOrEqual(8);
    }
    const expected = big.seeded.deals.filter((d) => d.propertyAddress.city === 'Austin').sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    expect(reads[1].value.data.map((d) => d.id)).toEqual(expected.slice(0, 3).map((d) => d.id));
  });

  it('resolve reads a bounded candidate set and ranks the deal at that address first, at any size', async () => {
    const target = big.seeded.deals[47];
    const r = await counted(() => findDealsByAddress(big.orgId, target.propertyAddress.street));
    expect(r.value.map((d) => d.id)).toContain(target.id);
    // At most 4 lookups of 50 tokens and the 25 best candidates' deals.
    expect(r.items).toBeLessThanOrEqual(4 * 50 + 25);
    const smallRead = await counted(() => findDealsByAddress(small.orgId, small.seeded.deals[3].propertyAddress.street));
    expect(smallRead.value.map((d) => d.id)).toContain(small.seeded.deals[3].id);
  });

  it('contact search reads the page it returns, by name, at any size', async () => {
    const reads = await eachOrg((o) => listContacts(o.orgId, { q: 'title', page: 1, pageSize: 4 }));
    for (const r of reads) {
      expect(r.value.data).toHaveLength(4);
      r.value.data.forEach((c) => expect(c.company).toMatch(/ Title$/));
      // 5 token items (page + 1) and the page's 4 contacts.
      expect(r.items).toBeLessThanOrEqual(9);
    }
    const names = big.seeded.contacts.filter((c) => c.company?.endsWith(' Title')).map((c) => `${c.name.toLowerCase()}#${c.id}`).sort();
    expect(reads[1].value.data.map((c) => `${c.name.toLowerCase()}#${c.id}`)).toEqual(names.slice(0, 4));
  });
});
