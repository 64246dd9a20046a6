/**
 * Transactional outbox on DynamoDB Local: an event item exists if and only if the change it reports
 * committed. A status change writes its events with the change; a change that fails (missing deal, a
 * deal deleted between read and write, invalid input) writes neither change nor event.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeleteCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { useTestTable } from '../support/test-table.ts';
import { createOrganization } from '#db/orgs';
import { db, tableName } from '#db/client';
import { getDeal } from '#db/transactions';
import { createTransaction } from '#use-cases/create-transaction';
import { changeTransactionStatus } from '#use-cases/change-transaction-status';
import { upsertKeyDates } from '#use-cases/key-dates';
import { NotFound, InvalidInput } from '#domain/errors';
import type { EventEnvelope as TypedEnvelope, Actor } from '#events/outbox';

/** An envelope of any type, its `data` read loosely (the tests compare several types at once). */
type EventEnvelope = Omit<TypedEnvelope, 'data'> & { data: Record<string, any> };

const NOW = new Date('2030-04-01T15:00:00.000Z');
let actor: Actor;
/** Runs once, right before the next TransactWriteItems is sent (to interleave a concurrent change). */
let beforeNextTransaction: (() => Promise<void>) | undefined;

async function events(): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({ TableName: tableName(), FilterExpression: 'entity = :e AND orgId = :o', ExpressionAttributeValues: { ':e': 'OutboxEvent', ':o': actor.orgId }, ExclusiveStartKey, ConsistentRead: true }),
    );
    out.push(...(page.Items ?? []).map((i) => i.envelope as EventEnvelope));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}
const newEventsSince = async (before: EventEnvelope[]) => {
  const seen = new Set(before.map((e) => e.eventId));
  return (await events()).filter((e) => !seen.has(e.eventId));
};
const newDeal = (status = 'Under Contract') =>
  createTransaction(actor, { propertyAddress: { street: '1207 Live Oak Ln', city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status }, undefined, NOW);
const collection = async (id: string) =>
  (await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `ORG#${actor.orgId}#TXN#${id}` }, ConsistentRead: true }))).Items ?? [];

beforeAll(async () => {
  await useTestTable();
  const org = await createOrganization({ name: 'Outbox Realty', ownerEmail: 'owner@outbox.test' });
  actor = { orgId: org.orgId, userId: org.ownerUserId };
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && beforeNextTransaction) {
        const run = beforeNextTransaction;
        beforeNextTransaction = undefined;
        await run();
      }
      return next(args);
    },
    { step: 'initialize', name: 'interleave' },
  );
});
beforeEach(() => {
  beforeNextTransaction = undefined;
});

describe('status change events', () => {
  it('closing a deal writes transaction.status_changed and transaction.closed with the change', async () => {
    const deal = await newDeal();
    const before = await events();

    const result = await changeTransactionStatus(actor, deal.id, 'closed', NOW);

    const written = await newEventsSince(before);
    expect(written.map((e) => e.eventType).sort()).toEqual(['task.created', 'transaction.closed', 'transaction.status_changed']);
    expect(written.find((e) => e.eventType === 'transaction.status_changed')).toMatchObject({
      organizationId: actor.orgId,
      userId: actor.userId,
      timestamp: NOW.toISOString(),
      data: { transactionId: deal.id, previousStatus: 'Under Contract', status: 'Closed' },
    });
    expect(written.find((e) => e.eventType === 'transaction.closed')?.data).toEqual({ transactionId: deal.id, status: 'Closed', closedAt: NOW.toISOString() });
    expect(result.transaction.closedAt).toBe(NOW.toISOString());
    expect((await getDeal(actor.orgId, deal.id)).status).toBe('Closed');
  });

  it('a change to a non-closed status writes no transaction.closed', async () => {
    const deal = await newDeal('Active Listing');
    const before = await events();

    await changeTransactionStatus(actor, deal.id, 'Under Contract', NOW);

    const types = (await newEventsSince(before)).map((e) => e.eventType);
    expect(types).toContain('transaction.status_changed');
    expect(types).not.toContain('transaction.closed');
  });

  it('changing to the current status writes nothing', async () => {
    const deal = await newDeal();
    const before = await events();

    const result = await changeTransactionStatus(actor, deal.id, 'under contract', NOW);

    expect(result.changed).toBe(false);
    expect(await newEventsSince(before)).toEqual([]);
  });

  it('a missing deal throws NotFound and writes no event', async () => {
    const before = await events();

    await expect(changeTransactionStatus(actor, '00000000-0000-4000-8000-000000000000', 'Closed', NOW)).rejects.toBeInstanceOf(NotFound);

    expect(await newEventsSince(before)).toEqual([]);
  });

  it('a deal deleted between read and write commits nothing: no status, activity, task or event', async () => {
    const deal = await newDeal();
    const before = await events();
    beforeNextTransaction = async () => {
      await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: `ORG#${actor.orgId}#TXN#${deal.id}`, SK: 'TXN' } }));
    };

    await expect(changeTransactionStatus(actor, deal.id, 'Closed', NOW)).rejects.toBeInstanceOf(NotFound);

    expect(beforeNextTransaction).toBeUndefined();
    expect(await newEventsSince(before)).toEqual([]);
    expect(await collection(deal.id)).toEqual([]);
  });

  it('an unknown status throws InvalidInput listing the vocabulary and writes nothing', async () => {
    const deal = await newDeal();
    const before = await events();

    const err = await changeTransactionStatus(actor, deal.id, 'Escrow Limbo', NOW).catch((e) => e);

    expect(err).toBeInstanceOf(InvalidInput);
    expect(err.fields.status).toContain('Under Contract');
    expect(await newEventsSince(before)).toEqual([]);
  });
});

describe('key-date events', () => {
  it('a duplicate key-date type throws InvalidInput and writes nothing', async () => {
    const deal = await newDeal();
    const before = await events();

    const err = await upsertKeyDates(
      actor,
      deal.id,
      [
        { keyDateType: 'ClosingDate', dateValue: '2030-05-01' },
        { keyDateType: 'OptionPeriodEnd', dateValue: '2030-04-10' },
        { keyDateType: 'ClosingDate', dateValue: '2030-05-08' },
      ],
      NOW,
    ).catch((e) => e);

    expect(err).toBeInstanceOf(InvalidInput);
    expect(Object.keys(err.fields)).toEqual(['keyDates[2].keyDateType']);
    expect((await getDeal(actor.orgId, deal.id)).keyDates).toEqual([]);
    expect(await newEventsSince(before)).toEqual([]);
  });

  it('writes one key_date.updated per changed date, none for an unchanged repeat', async () => {
    const deal = await newDeal();
    const before = await events();

    await upsertKeyDates(actor, deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2030-05-01' }, { keyDateType: 'OptionPeriodEnd', dateValue: '2030-04-10' }], NOW);
    const afterFirst = await events();
    await upsertKeyDates(actor, deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2030-05-01' }], NOW);

    const first = afterFirst.filter((e) => !before.some((b) => b.eventId === e.eventId));
    expect(first.map((e) => [e.eventType, e.data.keyDateType, e.data.previousValue]).sort()).toEqual([
      ['key_date.updated', 'ClosingDate', null],
      ['key_date.updated', 'OptionPeriodEnd', null],
    ]);
    expect(await newEventsSince(afterFirst)).toEqual([]);
  });
});
