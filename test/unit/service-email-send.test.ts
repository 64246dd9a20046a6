/**
 * The send worker's "never twice" for service email (shared/use-cases/messaging/deliver-service-email.ts) against
 * mocked AWS clients (aws-sdk-client-mock): the document client keeps one queued disclosure share and its recipient
 * in memory and applies the conditions the use case writes; Amazon SES v2 `SendEmail` (shared/ports/mail/
 * ses-plain.ts) is the provider. Covered: the attempt is recorded before SES is called and the recipient shows the
 * outcome; a crash between SES's accept and the mark never sends again; throttling and a refused connection give the
 * attempt back; a suppressed address and a refusal are `failed` on the recipient; a purged recipient does not block
 * closing the send.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { InternalServerError, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MessageRejected, SendEmailCommand, SESv2Client, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { resetDbClient } from '#db/client';
import { sendAttemptUpdates } from './send-attempt-fake.ts';
import { resetPlainMailer } from '#ports/plain-mailer';
import { resetSesPlainMailer } from '#ports/mail/ses-plain';
import { SEND_LEASE_SECONDS, SendInFlight, UNKNOWN_DETAIL } from '#use-cases/messaging/deliver-message';
import { deliverQueuedServiceEmail } from '#use-cases/messaging/deliver-service-email';

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
const T0 = Date.parse('2030-03-01T12:00:00.000Z');
const at = (ms: number) => () => new Date(T0 + ms);

let email: Record<string, any>;
let recipient: Record<string, any> | undefined;
let suppressed: boolean;
let calls: string[];
let failNextMark: boolean;

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 'unit-table');
  vi.stubEnv('MAIL_TRANSPORT', '');
  vi.stubEnv('MAIL_FROM_ADDRESS', 'notices@tcs.example');
  vi.stubEnv('SES_CONFIGURATION_SET', 'tcs-mail');
  resetDbClient();
  resetPlainMailer();
  resetSesPlainMailer();
  ddb.reset();
  ses.reset();
  calls = [];
  failNextMark = false;
  suppressed = false;
  email = {
    PK: 'ORG#org-1#SVCMAIL#e-1', SK: 'SEND', entity: 'ServiceEmail', orgId: 'org-1', emailId: 'e-1', purpose: 'disclosure_share',
    subject: { kind: 'disclosure_recipient', packageId: 'p-1', recipientId: 'r-1' }, state: 'queued', attemptAt: null, requestedBy: 'u-1',
    payload: { to: 'pat@example.com', fromName: 'Example Realty', subject: 'Disclosures: documents shared with you', text: 'Open it here: https://x.example/d/token' },
  };
  recipient = { emailStatus: 'queued', emailDetail: null };
  ddb.on(GetCommand).callsFake((input) => {
    if (input.Key.SK === 'SEND') return { Item: structuredClone(email) };
    return suppressed ? { Item: { address: 'pat@example.com', reason: 'bounce' } } : {};
  });
  ddb.on(UpdateCommand).callsFake(sendAttemptUpdates(() => email, calls));
  ddb.on(TransactWriteCommand).callsFake((input) => {
    if (failNextMark) {
      failNextMark = false;
      throw new InternalServerError({ message: 'crash', $metadata: {} });
    }
    const reasons = input.TransactItems.map((item: any) => {
      const u = item.Update;
      if (u.Key.SK === 'SEND') return email.state === 'sending' ? 'None' : 'ConditionalCheckFailed';
      return recipient ? 'None' : 'ConditionalCheckFailed';
    });
    if (reasons.some((r: string) => r !== 'None')) throw new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: reasons.map((Code: string) => ({ Code })) });
    for (const item of input.TransactItems) {
      const u = item.Update;
      const v = u.ExpressionAttributeValues;
      if (u.Key.SK === 'SEND') {
        Object.assign(email, { state: v[':state'] });
        delete email.payload;
      } else Object.assign(recipient!, { key: u.Key, emailStatus: v[':s'], emailDetail: v[':d'] });
    }
    calls.push('mark');
    return {};
  });
  ses.on(SendEmailCommand).callsFake(() => {
    calls.push('provider');
    return { MessageId: 'ses-1' };
  });
});
afterEach(() => vi.unstubAllEnvs());

describe('deliverQueuedServiceEmail', () => {
  it('records the attempt before calling SES, sends from the service with the display name, marks the recipient sent and closes the send', async () => {
    expect(await deliverQueuedServiceEmail('org-1', 'e-1', at(0))).toBe('sent');
    expect(calls).toEqual(['claim', 'provider', 'mark']);
    expect(ses).toHaveReceivedCommandWith(SendEmailCommand, {
      FromEmailAddress: '"Example Realty" <notices@tcs.example>',
      Destination: { ToAddresses: ['pat@example.com'] },
      ConfigurationSetName: 'tcs-mail',
    });
    expect(recipient).toMatchObject({ key: { PK: 'ORG#org-1#DISC#p-1', SK: 'RCPT#r-1' }, emailStatus: 'sent', emailDetail: null });
    expect(email.state).toBe('sent');
    expect(email).not.toHaveProperty('payload');
  });

  it('a crash between SES accepting and the mark never sends again: in flight within the lease, unknown after it', async () => {
    failNextMark = true;
    await expect(deliverQueuedServiceEmail('org-1', 'e-1', at(0))).rejects.toThrow('crash');
    expect(email.state).toBe('sending');
    await expect(deliverQueuedServiceEmail('org-1', 'e-1', at(5_000))).rejects.toBeInstanceOf(SendInFlight);
    expect(await deliverQueuedServiceEmail('org-1', 'e-1', at(SEND_LEASE_SECONDS * 1000 + 1))).toBe('unknown');
    expect(recipient).toMatchObject({ emailStatus: 'unknown', emailDetail: UNKNOWN_DETAIL });
    expect(await deliverQueuedServiceEmail('org-1', 'e-1', at(SEND_LEASE_SECONDS * 2000))).toBe('skipped');
    expect(ses).toHaveReceivedCommandTimes(SendEmailCommand, 1);
  });

  it('throttling (SES answered) gives the attempt back; the retry sends once', async () => {
    ses.on(SendEmailCommand).rejectsOnce(new TooManyRequestsException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 429 } })).resolves({ MessageId: 'ses-2' });
    await expect(deliverQueuedServiceEmail('org-1', 'e-1', at(0))).rejects.toBeInstanceOf(TooManyRequestsException);
    expect(email).toMatchObject({ state: 'queued', attemptAt: null });
    expect(recipient!.emailStatus).toBe('queued');
    expect(await deliverQueuedServiceEmail('org-1', 'e-1', at(1_000))).toBe('sent');
    expect(ses).toHaveReceivedCommandTimes(SendEmailCommand, 2);
  });

  it('a refused connection proves nothing went out: the attempt is given back, not concluded unknown', async () => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    await expect(deliverQueuedServiceEmail('org-1', 'e-1', at(0))).rejects.toThrow('ECONNREFUSED');
    expect(calls).toEqual(['claim', 'release']);
    expect(email.state).toBe('queued');
  });

  it('a dropped connection after the request went out may have sent it: unknown on the recipient, never retried', async () => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    expect(await deliverQueuedServiceEmail('org-1', 'e-1', at(0))).toBe('unknown');
    expect(recipient!.emailStatus).toBe('unknown');
    expect(await deliverQueuedServiceEmail('org-1', 'e-1', at(1_000))).toBe('skipped');
    expect(ses).toHaveReceivedCommandTimes(SendEmailCommand, 1);
  });

  it('an address suppressed after the share was queued is never emailed: failed on the recipient, saying why', async () => {
    suppressed = true;
    expect(await deliverQueuedServiceEmail('org-1', 'e-1', at(0))).toBe('failed');
    expect(ses).toHaveReceivedCommandTimes(SendEmailCommand, 0);
    expect(recipient).toMatchObject({ emailStatus: 'failed', emailDetail: expect.stringMatching(/pat@example\.com was suppressed/) });
    expect(email.state).toBe('failed');
  });

  it("SES's refusal for good is failed on the recipient with the reason", async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'Email address is not verified.', $metadata: { httpStatusCode: 400 } }));
    expect(await deliverQueuedServiceEmail('org-1', 'e-1', at(0))).toBe('failed');
    expect(recipient).toMatchObject({ emailStatus: 'failed', emailDetail: expect.stringContaining('Email address is not verified.') });
  });

  it('a recipient purged meanwhile does not keep the send open: it is closed alone', async () => {
    recipient = undefined;
    expect(await deliverQueuedServiceEmail('org-1', 'e-1', at(0))).toBe('sent');
    expect(email.state).toBe('sent');
    expect(ses).toHaveReceivedCommandTimes(SendEmailCommand, 1);
  });
});
