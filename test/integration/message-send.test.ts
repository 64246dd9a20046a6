/**
 * Sends off the request path on DynamoDB Local: queuing a text writes the `queued` message, its send and its
 * `message.queued` outbox event together; the send worker's use case texts it once through the local SMS sink and marks
 * it; a crash between the provider's accept and the mark (the mark's transaction fails once) never texts twice: a retry
 * within the lease is refused as in flight, one after it marks the message failed with delivery unknown.
 */
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { useTestTable } from '../support/test-table.ts';
import { createOrganization } from '#db/orgs';
import { db, tableName } from '#db/client';
import { getCommunication } from '#db/communications';
import { getOutboundSend } from '#db/outbound-sends';
import { resetSmsSender } from '#ports/sms/transport';
import { createTransaction } from '#use-cases/create-transaction';
import { queueDealSms } from '#use-cases/messaging/send-sms';
import { deliverQueuedMessage, SEND_LEASE_SECONDS, SendInFlight, UNKNOWN_DETAIL } from '#use-cases/messaging/deliver-message';
import type { Actor } from '#events/outbox';

const NOW = new Date('2030-04-01T15:00:00.000Z');
const at = (ms: number) => () => new Date(NOW.getTime() + ms);
let actor: Actor;
let dealId: string;
let dir: string;
/** When set, the next TransactWriteItems fails before it is sent (the worker "crashes" before the mark lands). */
let failNextTransaction = false;

const texts = () => (existsSync(path.join(dir, 'sms.jsonl')) ? readFileSync(path.join(dir, 'sms.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
const queue = (body: string) =>
  queueDealSms(actor, { transactionId: dealId, phone: '(512) 555-0143', phoneField: 'toPhoneNumber', body, kind: 'sms', forceOverride: true, contactId: null, name: 'Maria' }, NOW);

beforeAll(async () => {
  await useTestTable();
  dir = mkdtempSync(path.join(tmpdir(), 'message-send-'));
  vi.stubEnv('SMS_TRANSPORT', 'local');
  vi.stubEnv('LOCAL_SMS_SINK', path.join(dir, 'sms.jsonl'));
  resetSmsSender();
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (failNextTransaction && context.commandName === 'TransactWriteItemsCommand') {
        failNextTransaction = false;
        throw new Error('worker crashed before the mark');
      }
      return next(args);
    },
    { step: 'initialize', name: 'crashOnce' },
  );
  const org = await createOrganization({ name: 'Send Worker Realty', ownerEmail: 'owner@send-worker.test' });
  actor = { orgId: org.orgId, userId: org.ownerUserId };
  dealId = (await createTransaction(actor, { propertyAddress: { street: '4410 Cedar Bend Dr', city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract' }, undefined, NOW)).id;
});
beforeEach(() => {
  failNextTransaction = false;
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetSmsSender();
  rmSync(dir, { recursive: true, force: true });
});

describe('queue, then send once', () => {
  it('queues the message, its send and its message.queued event in one transaction; the worker texts it once and marks it sent', async () => {
    const { message } = await queue('The inspection is Tuesday at 10.');
    expect(message.status).toBe('queued');
    expect(await getOutboundSend(actor.orgId, message.id)).toMatchObject({ state: 'queued', payload: { channel: 'sms', to: '+15125550143', body: 'The inspection is Tuesday at 10.' } });
    const events = await db().send(new ScanCommand({ TableName: tableName(), FilterExpression: 'entity = :e AND orgId = :o', ExpressionAttributeValues: { ':e': 'OutboxEvent', ':o': actor.orgId }, ConsistentRead: true }));
    expect((events.Items ?? []).map((i) => i.envelope).filter((e) => e.data.communicationId === message.id)).toEqual([
      expect.objectContaining({ eventType: 'message.queued', data: { transactionId: dealId, communicationId: message.id, channel: 'sms', scheduledMessageId: null } }),
    ]);
    expect(texts().filter((t) => t.body === 'The inspection is Tuesday at 10.')).toHaveLength(0);

    expect(await deliverQueuedMessage(actor.orgId, message.id, at(0))).toBe('sent');
    expect(await deliverQueuedMessage(actor.orgId, message.id, at(1000))).toBe('skipped');
    expect(texts().filter((t) => t.body === 'The inspection is Tuesday at 10.')).toHaveLength(1);
    expect(await getCommunication(actor.orgId, message.id)).toMatchObject({ status: 'sent', provider: 'local' });
    const send = await getOutboundSend(actor.orgId, message.id);
    expect(send).toMatchObject({ state: 'sent' });
    expect(send).not.toHaveProperty('payload');
  });

  it('a crash between the provider accepting and the mark: in flight within the lease, then failed with delivery unknown; texted once', async () => {
    const { message } = await queue('Bring the gate code.');
    failNextTransaction = true;
    await expect(deliverQueuedMessage(actor.orgId, message.id, at(0))).rejects.toThrow('worker crashed before the mark');
    expect(texts().filter((t) => t.body === 'Bring the gate code.')).toHaveLength(1);
    expect(await getOutboundSend(actor.orgId, message.id)).toMatchObject({ state: 'sending', attemptAt: NOW.toISOString() });

    await expect(deliverQueuedMessage(actor.orgId, message.id, at(10_000))).rejects.toBeInstanceOf(SendInFlight);
    expect(await deliverQueuedMessage(actor.orgId, message.id, at(SEND_LEASE_SECONDS * 1000 + 1))).toBe('unknown');
    expect(await getCommunication(actor.orgId, message.id)).toMatchObject({ status: 'failed', statusDetail: UNKNOWN_DETAIL });
    expect(await getOutboundSend(actor.orgId, message.id)).toMatchObject({ state: 'unknown' });
    expect(texts().filter((t) => t.body === 'Bring the gate code.')).toHaveLength(1);
  });

  it('the thread shows the message queued until the worker marks it', async () => {
    const { message } = await queue('One more thing.');
    const thread = await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `ORG#${actor.orgId}#TXN#${dealId}#COMMS` }, ConsistentRead: true }));
    expect((thread.Items ?? []).find((i) => i.id === message.id)).toMatchObject({ status: 'queued' });
  });
});
