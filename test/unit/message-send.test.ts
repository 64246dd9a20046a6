/**
 * The send worker's "never twice" (shared/use-cases/messaging/deliver-message.ts) against mocked AWS clients
 * (aws-sdk-client-mock): the document client keeps one send item and one message in memory and applies the
 * conditions the use case writes, and End User Messaging SMS (`SendTextMessage`) is the provider. Covered: the
 * attempt is recorded before the provider is called; a crash between the provider's accept and the mark does not
 * send again on any retry (in flight within the lease, marked failed with delivery unknown after it); an error the
 * provider answered with gives the attempt back so a retry sends once; an ambiguous error and a refusal never retry.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { InternalServerError } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PinpointSMSVoiceV2Client, SendTextMessageCommand, ThrottlingException, ValidationException } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { resetDbClient } from '#db/client';
import { sendAttemptUpdates } from './send-attempt-fake.ts';
import { resetSmsSender } from '#ports/sms/transport';
import { deliverQueuedMessage, SEND_LEASE_SECONDS, SendInFlight, UNKNOWN_DETAIL } from '#use-cases/messaging/deliver-message';

const ddb = mockClient(DynamoDBDocumentClient);
const sms = mockClient(PinpointSMSVoiceV2Client);
const T0 = Date.parse('2030-03-01T12:00:00.000Z');
const at = (ms: number) => () => new Date(T0 + ms);

/** What the fake table holds, and the order of the calls that matter. */
let send: Record<string, any>;
let message: Record<string, any>;
let calls: string[];
let failNextMark: boolean;

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 'unit-table');
  vi.stubEnv('SMS_ORIGINATION_IDENTITY', '+15550100000');
  vi.stubEnv('SMS_CONFIGURATION_SET', 'tcs-sms');
  resetDbClient();
  resetSmsSender();
  ddb.reset();
  sms.reset();
  calls = [];
  failNextMark = false;
  send = {
    PK: 'ORG#org-1#MSG#m-1', SK: 'SEND', entity: 'OutboundSend', orgId: 'org-1', messageId: 'm-1', transactionId: 't-1', messageCreatedAt: '2030-03-01T11:59:59.000Z',
    state: 'queued', attemptAt: null, payload: { channel: 'sms', to: '+15125550143', body: 'Inspection is Tuesday at 10.' }, scheduledMessageId: null, sentBy: 'u-1',
  };
  message = { status: 'queued', provider: null };
  // The send item; nothing else is stored (no opt-out of the number).
  ddb.on(GetCommand).callsFake((input) => (input.Key.SK === 'SEND' ? { Item: structuredClone(send) } : {}));
  ddb.on(UpdateCommand).callsFake(sendAttemptUpdates(() => send, calls));
  ddb.on(TransactWriteCommand).callsFake((input) => {
    if (failNextMark) {
      failNextMark = false;
      throw new InternalServerError({ message: 'crash', $metadata: {} });
    }
    for (const item of input.TransactItems) {
      const u = item.Update;
      if (u?.Key.SK === 'SEND') {
        if (send.state !== 'sending') throw new Error('the send was not sending');
        Object.assign(send, { state: u.ExpressionAttributeValues[':state'] });
        delete send.payload;
      } else if (u) Object.assign(message, { status: u.ExpressionAttributeValues[':s'], detail: u.ExpressionAttributeValues[':d'], provider: u.ExpressionAttributeValues[':p'] });
    }
    calls.push('mark');
    return {};
  });
  sms.on(SendTextMessageCommand).callsFake(() => {
    calls.push('provider');
    return { MessageId: 'sms-1' };
  });
});
afterEach(() => vi.unstubAllEnvs());

describe('deliverQueuedMessage', () => {
  it('records the attempt before calling the provider, then marks the message sent and closes the send', async () => {
    expect(await deliverQueuedMessage('org-1', 'm-1', at(0))).toBe('sent');
    expect(calls).toEqual(['claim', 'provider', 'mark']);
    expect(sms).toHaveReceivedCommandWith(SendTextMessageCommand, { DestinationPhoneNumber: '+15125550143', MessageBody: 'Inspection is Tuesday at 10.', OriginationIdentity: '+15550100000' });
    expect(message).toMatchObject({ status: 'sent', provider: 'sms' });
    expect(send.state).toBe('sent');
    expect(send).not.toHaveProperty('payload');
  });

  it('a crash between the provider accepting and the mark never sends again: in flight within the lease, failed with delivery unknown after it', async () => {
    failNextMark = true;
    await expect(deliverQueuedMessage('org-1', 'm-1', at(0))).rejects.toThrow('crash');
    expect(sms).toHaveReceivedCommandTimes(SendTextMessageCommand, 1);
    expect(send.state).toBe('sending');

    await expect(deliverQueuedMessage('org-1', 'm-1', at(5_000))).rejects.toBeInstanceOf(SendInFlight);
    expect(await deliverQueuedMessage('org-1', 'm-1', at(SEND_LEASE_SECONDS * 1000 + 1))).toBe('unknown');
    expect(message).toMatchObject({ status: 'failed', detail: UNKNOWN_DETAIL });
    expect(send.state).toBe('unknown');
    expect(await deliverQueuedMessage('org-1', 'm-1', at(SEND_LEASE_SECONDS * 2000))).toBe('skipped');
    expect(sms).toHaveReceivedCommandTimes(SendTextMessageCommand, 1);
  });

  it('a duplicate event of a sent message is skipped without calling the provider', async () => {
    expect(await deliverQueuedMessage('org-1', 'm-1', at(0))).toBe('sent');
    expect(await deliverQueuedMessage('org-1', 'm-1', at(1_000))).toBe('skipped');
    expect(sms).toHaveReceivedCommandTimes(SendTextMessageCommand, 1);
  });

  it('an error the provider answered with (throttling) gives the attempt back; the retry sends once', async () => {
    sms.on(SendTextMessageCommand).rejectsOnce(new ThrottlingException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 429 } })).resolves({ MessageId: 'sms-2' });
    await expect(deliverQueuedMessage('org-1', 'm-1', at(0))).rejects.toBeInstanceOf(ThrottlingException);
    expect(send).toMatchObject({ state: 'queued', attemptAt: null });
    expect(message.status).toBe('queued');
    expect(await deliverQueuedMessage('org-1', 'm-1', at(1_000))).toBe('sent');
    expect(sms).toHaveReceivedCommandTimes(SendTextMessageCommand, 2);
    expect(message).toMatchObject({ status: 'sent', provider: 'sms' });
  });

  it('an error without an answer (the connection dropped) may have gone out: failed, delivery unknown, never retried', async () => {
    sms.on(SendTextMessageCommand).rejects(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    expect(await deliverQueuedMessage('org-1', 'm-1', at(0))).toBe('unknown');
    expect(message).toMatchObject({ status: 'failed', detail: UNKNOWN_DETAIL });
    expect(await deliverQueuedMessage('org-1', 'm-1', at(1_000))).toBe('skipped');
    expect(sms).toHaveReceivedCommandTimes(SendTextMessageCommand, 1);
  });

  it('a number that opted out after the text was queued is never texted: failed, saying so', async () => {
    ddb.on(GetCommand).callsFake((input) => (input.Key.SK === 'SEND' ? { Item: structuredClone(send) } : { Item: { phone: '+15125550143', keyword: 'STOP', optedOutAt: '2030-03-01T11:59:59.500Z' } }));
    expect(await deliverQueuedMessage('org-1', 'm-1', at(0))).toBe('failed');
    expect(sms).toHaveReceivedCommandTimes(SendTextMessageCommand, 0);
    expect(message.detail).toMatch(/opted out/);
  });

  it('a refusal for good marks the message failed with the reason', async () => {
    sms.on(SendTextMessageCommand).rejects(new ValidationException({ message: 'not a mobile number', $metadata: { httpStatusCode: 400 }, Reason: 'INVALID_PARAMETER' as never }));
    expect(await deliverQueuedMessage('org-1', 'm-1', at(0))).toBe('failed');
    expect(message).toMatchObject({ status: 'failed' });
    expect(message.detail).toContain('not a mobile number');
    expect(send.state).toBe('failed');
  });
});
