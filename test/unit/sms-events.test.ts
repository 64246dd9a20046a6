/**
 * SMS delivery receipts (shared/use-cases/messaging/sms-events.ts) against a mocked document client: which End User
 * Messaging SMS events record what on the text (`delivered`, `failed` with the description, nothing for
 * intermediate events), through the provider reference.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { resetDbClient } from '#db/client';
import { commsPk, messageRefPk } from '#db/keys';
import { recordSmsEvents, toTextReceipt, type SmsEvent } from '#use-cases/messaging/sms-events';

const ddb = mockClient(DynamoDBDocumentClient);
const NOW = new Date('2030-03-01T12:00:00.000Z');

/** An SMS event as End User Messaging publishes it (User Guide, "Example SMS event data"). */
const event = (eventType: string, over: Partial<SmsEvent> = {}): SmsEvent => ({
  eventType,
  isFinal: true,
  messageId: 'msg-1',
  messageStatus: eventType.replace('TEXT_', ''),
  messageStatusDescription: 'Message has been accepted by phone',
  ...over,
});

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 'unit-table');
  resetDbClient();
  ddb.reset();
  // The provider reference of `msg-1` names the message; the message's reference names its item.
  ddb.on(GetCommand, { Key: { PK: 'PROVIDERMSG#sms#msg-1', SK: 'REF' } }).resolves({ Item: { orgId: 'org-1', transactionId: 'deal-1', messageId: 'm-1' } });
  ddb.on(GetCommand, { Key: { PK: messageRefPk('org-1', 'm-1'), SK: 'MSG' } }).resolves({ Item: { transactionId: 'deal-1', sk: 'COMM#2030-03-01#m-1' } });
  ddb.on(UpdateCommand).resolves({});
});
afterEach(() => {
  vi.unstubAllEnvs();
  resetDbClient();
});

describe('toTextReceipt', () => {
  it('reads TEXT_DELIVERED and TEXT_SUCCESSFUL as delivered', () => {
    for (const t of ['TEXT_DELIVERED', 'TEXT_SUCCESSFUL']) expect(toTextReceipt(event(t))).toEqual({ providerMessageId: 'msg-1', status: 'delivered', detail: null });
  });

  it('reads a final failure as failed with the description, else the status', () => {
    expect(toTextReceipt(event('TEXT_BLOCKED', { messageStatusDescription: 'Blocked by the recipient carrier' }))).toEqual({ providerMessageId: 'msg-1', status: 'failed', detail: 'Blocked by the recipient carrier' });
    expect(toTextReceipt(event('TEXT_INVALID', { messageStatusDescription: '' }))?.detail).toBe('INVALID');
  });

  it('records nothing for queued, pending, a failure not final yet, a voice event or an event without a message id', () => {
    expect(toTextReceipt(event('TEXT_QUEUED'))).toBeUndefined();
    expect(toTextReceipt(event('TEXT_PENDING', { isFinal: false }))).toBeUndefined();
    expect(toTextReceipt(event('TEXT_CARRIER_UNREACHABLE', { isFinal: false }))).toBeUndefined();
    expect(toTextReceipt(event('VOICE_COMPLETED'))).toBeUndefined();
    expect(toTextReceipt(event('TEXT_DELIVERED', { messageId: undefined }))).toBeUndefined();
  });
});

describe('recordSmsEvents', () => {
  it('sets the text delivered, then failed for a later final failure, each as a conditional update of its item', async () => {
    expect(await recordSmsEvents([event('TEXT_DELIVERED'), event('TEXT_QUEUED'), event('TEXT_SPAM', { messageStatusDescription: 'Identified as spam' })], () => NOW)).toBe(2);
    const updates = ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(updates).toHaveLength(2);
    expect(updates.map((u) => u.ExpressionAttributeValues?.[':s'])).toEqual(['delivered', 'failed']);
    expect(updates[1].ExpressionAttributeValues?.[':d']).toBe('Identified as spam');
    expect(updates[0].Key).toEqual({ PK: commsPk('org-1', 'deal-1'), SK: 'COMM#2030-03-01#m-1' });
    expect(updates[0].ConditionExpression).toContain('NOT #s IN');
  });

  it('ignores a receipt for a text it did not send (no provider reference)', async () => {
    ddb.on(GetCommand, { Key: { PK: 'PROVIDERMSG#sms#other', SK: 'REF' } }).resolves({});
    expect(await recordSmsEvents([event('TEXT_DELIVERED', { messageId: 'other' })], () => NOW)).toBe(0);
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
  });
});
