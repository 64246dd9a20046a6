/**
 * Deal writes under concurrency, on DynamoDB Local: writes planned from a read of the deal commit only if the
 * deal's version is unchanged, so concurrent status changes cannot both emit `transaction.status_changed` from
 * the same previous status or both create a cascade's tasks; a linked task never ends up following a stale key
 * date. Also: the deal read is bounded by its recent activity, and a status change answers what a fresh read
 * shows without reading the deal back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestTable } from '../support/test-table.ts';
import { outboxEvents } from '../e2e/deal-fixtures.ts';
import { createOrganization } from '#db/orgs';
import { getDeal, RECENT_ACTIVITY } from '#db/transactions';
import { createTransaction } from '#use-cases/create-transaction';
import { activityPut } from '#db/activity';
import { transactWrite } from '#db/transact';
import { db } from '#db/client';
import { changeTransactionStatus } from '#use-cases/change-transaction-status';
import { upsertKeyDates } from '#use-cases/key-dates';
import { createTask } from '#use-cases/tasks';
import type { Actor } from '#events/outbox';
import { installRoundTripCounter } from '../../bench/round-trips.ts';

let actor: Actor;
const address = { street: '77 Concurrency Ct', city: 'Austin', state: 'TX', zip: '78704' };
const at = (minute: number) => new Date(Date.UTC(2026, 10, 2, 15, minute));

beforeAll(async () => {
  await useTestTable();
  const org = await createOrganization({ name: 'Race Realty', ownerEmail: 'race@example.test' });
  actor = { orgId: org.orgId, userId: org.ownerUserId };
});

async function newDeal(status = 'Under Contract') {
  const t = await createTransaction(actor, { propertyAddress: address, transactionType: 'Purchase', side: 'Buyer', status }, () => [], at(0));
  await upsertKeyDates(actor, t.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-18' }], at(1));
  return t;
}

const statusEvents = async (transactionId: string) =>
  (await outboxEvents(actor.orgId, 'transaction.status_changed')).filter((e) => e.data.transactionId === transactionId);

describe('status change under concurrency', () => {
  it('ten identical concurrent changes: one changes the status and runs the cascade once, nine are no-ops', async () => {
    const t = await newDeal();

    const results = await Promise.all(Array.from({ length: 10 }, () => changeTransactionStatus(actor, t.id, 'Clear to Close', at(5))));

    expect(results.filter((r) => r.changed)).toHaveLength(1);
    const events = await statusEvents(t.id);
    expect(events.map((e) => e.data)).toEqual([{ transactionId: t.id, previousStatus: 'Under Contract', status: 'Clear to Close' }]);
    const deal = await getDeal(actor.orgId, t.id);
    expect(deal.status).toBe('Clear to Close');
    // Clear to Close creates two tasks: created once, not ten times.
    expect(deal.tasks.map((x) => x.title).sort()).toEqual(['Confirm closing appointment with escrow officer', 'Schedule final walkthrough']);
  });

  it('concurrent changes to different statuses form one chain: each previousStatus is the one before it', async () => {
    const t = await newDeal('Prospect');
    const targets = ['Under Contract', 'Closing Extended', 'Clear to Close', 'Closed'];

    await Promise.all(targets.map((s, i) => changeTransactionStatus(actor, t.id, s, at(10 + i))));

    const events = await statusEvents(t.id);
    const previous = events.map((e) => e.data.previousStatus);
    expect(new Set(previous).size).toBe(previous.length); // never two from the same status
    // Follow the chain from Prospect: every event starts where the one before it ended.
    let current = 'Prospect';
    const remaining = [...events];
    while (remaining.length) {
      const next = remaining.findIndex((e) => e.data.previousStatus === current);
      expect(next, `no event leaves ${current}`).toBeGreaterThanOrEqual(0);
      current = String(remaining.splice(next, 1)[0].data.status);
    }
    expect((await getDeal(actor.orgId, t.id)).status).toBe(current);
  });

  it('answers with the deal a fresh read shows, without reading it back', async () => {
    const t = await newDeal();
    const counter = installRoundTripCounter(db());
    const mark = counter.mark();

    const result = await changeTransactionStatus(actor, t.id, 'Closing Extended', at(20));

    // The vocabulary read, the deal query, the transaction: nothing after the commit.
    expect(counter.since(mark)).toEqual(['GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
    expect(result.cascade.keyDatesShifted).toEqual([{ keyDateType: 'ClosingDate', from: '2026-12-18', to: '2026-12-25' }]);
    expect(result.transaction).toEqual(await getDeal(actor.orgId, t.id));
  });
});

describe('linked tasks and key dates under concurrency', () => {
  it('a task created while its key date moves follows the date the deal ends with', async () => {
    const t = await newDeal();
    const moves = ['2027-01-05', '2027-01-12', '2027-01-19'];

    const [task] = await Promise.all([
      createTask(actor, t.id, { title: 'Order survey', linkedMilestoneName: 'ClosingDate' }, at(30)),
      ...moves.map((d, i) => upsertKeyDates(actor, t.id, [{ keyDateType: 'ClosingDate', dateValue: d }], at(31 + i))),
    ]);

    const deal = await getDeal(actor.orgId, t.id);
    const closing = deal.keyDates.find((k) => k.keyDateType === 'ClosingDate')!.dateValue;
    expect(deal.tasks.find((x) => x.id === task.id)!.dueDate).toBe(closing);
  });
});

describe('deal read', () => {
  it(`returns the ${RECENT_ACTIVITY} newest activity entries of a long history, newest first, in one query`, async () => {
    const t = await newDeal();
    for (let i = 0; i < 45; i++) {
      const { put } = activityPut(actor.orgId, { transactionId: t.id, type: 'note', summary: `entry ${i}`, details: null, userId: actor.userId }, new Date(Date.UTC(2026, 10, 3, 0, i)));
      await transactWrite([put]);
    }
    const counter = installRoundTripCounter(db());
    const mark = counter.mark();

    const deal = await getDeal(actor.orgId, t.id);

    expect(counter.since(mark)).toEqual(['QueryCommand']);
    expect(deal.recentActivity).toHaveLength(RECENT_ACTIVITY);
    expect(deal.recentActivity.map((a) => a.summary)).toEqual(Array.from({ length: RECENT_ACTIVITY }, (_, i) => `entry ${44 - i}`));
    expect(deal.keyDates.map((k) => k.keyDateType)).toEqual(['ClosingDate']);
  });
});
