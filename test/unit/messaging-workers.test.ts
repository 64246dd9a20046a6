/**
 * The messaging workers' event parsing, with the use cases they call replaced by spies: SES configuration-set events
 * (`toEmailEvent`, one per type, shapes as in the SES Developer Guide's "Examples of event data that Amazon SES
 * publishes to Amazon SNS"), two-way SMS notifications in SNS records, envelope recipients of received mail and S3
 * keys, the scheduled-send input checks, and the send worker's stream records (only `message.queued` inserts send).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { S3Event, SNSEvent } from 'aws-lambda';

vi.mock('#use-cases/messaging/delivery-events', () => ({ recordEmailEvent: vi.fn(async () => true) }));
vi.mock('#use-cases/messaging/receive-sms', () => ({ receiveSms: vi.fn(async () => 'threaded') }));
vi.mock('#use-cases/messaging/receive-email', () => ({ receiveEmail: vi.fn(async () => ({ outcome: 'unrouted' })) }));
vi.mock('#use-cases/messaging/scheduled-email', () => ({ sendScheduledEmail: vi.fn(async () => 'sent') }));
vi.mock('#use-cases/messaging/deliver-message', () => ({ deliverQueuedMessage: vi.fn(async () => 'sent') }));
vi.mock('#use-cases/messaging/deliver-service-email', () => ({ deliverQueuedServiceEmail: vi.fn(async () => 'sent') }));
vi.mock('#ports/blob-store', () => ({ getObjectBytes: vi.fn(async (key: string) => new TextEncoder().encode(`X-Original-To: reply+abcdefghijklmnopqrst@reply.test\r\nSubject: ${key}\r\n\r\nbody`)) }));

const { handler: emailEvents } = await import('#functions/email-events/handler');
const { toEmailEvent } = await import('#use-cases/messaging/ses-events');
const { handler: inboundSms } = await import('#functions/inbound-sms/handler');
const { inboundSmsOf } = await import('#use-cases/messaging/inbound-texts');
const { handler: inboundEmail } = await import('#functions/inbound-email/handler');
const { envelopeRecipientsOf } = await import('#use-cases/messaging/stored-emails');
const { handler: scheduledSend } = await import('#functions/scheduled-send/handler');
const { recordEmailEvent } = await import('#use-cases/messaging/delivery-events');
const { receiveSms } = await import('#use-cases/messaging/receive-sms');
const { receiveEmail } = await import('#use-cases/messaging/receive-email');
const { sendScheduledEmail } = await import('#use-cases/messaging/scheduled-email');
const { getObjectBytes } = await import('#ports/blob-store');
const { handler: messageSend } = await import('#functions/message-send/handler');
const { deliverQueuedMessage } = await import('#use-cases/messaging/deliver-message');
const { deliverQueuedServiceEmail } = await import('#use-cases/messaging/deliver-service-email');
const { marshall } = await import('@aws-sdk/util-dynamodb');

beforeEach(() => vi.clearAllMocks());

const mail = { timestamp: '2026-11-23T16:00:00.000Z', source: 'deals@hillcountry.example', messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000', destination: ['buyer@example.net', 'lender@example.org'] };
const sns = (messages: unknown[]): SNSEvent => ({
  Records: messages.map((m, i) => ({
    EventSource: 'aws:sns',
    EventVersion: '1.0',
    EventSubscriptionArn: 'arn:aws:sns:us-east-1:111122223333:topic:sub',
    Sns: {
      Type: 'Notification',
      MessageId: `sns-${i}`,
      TopicArn: 'arn:aws:sns:us-east-1:111122223333:topic',
      Subject: '',
      Message: typeof m === 'string' ? m : JSON.stringify(m),
      Timestamp: '2026-11-23T16:00:01.000Z',
      SignatureVersion: '1',
      Signature: 'x',
      SigningCertUrl: 'https://sns.example/cert.pem',
      UnsubscribeUrl: 'https://sns.example/unsub',
      MessageAttributes: {},
    },
  })),
});

describe('email-events: toEmailEvent', () => {
  const base = { provider: 'ses', providerMessageId: mail.messageId };

  it('delivery: the delivered recipients', () => {
    expect(toEmailEvent({ eventType: 'Delivery', mail, delivery: { recipients: ['buyer@example.net'] } })).toEqual({ ...base, type: 'delivery', recipients: ['buyer@example.net'], detail: null });
  });

  it('bounce: type, bounced recipients and their diagnostic codes', () => {
    const e = toEmailEvent({
      eventType: 'Bounce',
      mail,
      bounce: {
        bounceType: 'Permanent',
        bouncedRecipients: [
          { emailAddress: 'buyer@example.net', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
          { emailAddress: 'lender@example.org' },
        ],
      },
    });
    expect(e).toEqual({ ...base, type: 'bounce', bounceType: 'Permanent', recipients: ['buyer@example.net', 'lender@example.org'], detail: 'smtp; 550 5.1.1 user unknown' });
  });

  it('complaint: complained recipients and the feedback type', () => {
    expect(toEmailEvent({ eventType: 'Complaint', mail, complaint: { complainedRecipients: [{ emailAddress: 'buyer@example.net' }], complaintFeedbackType: 'abuse' } })).toEqual({
      ...base,
      type: 'complaint',
      recipients: ['buyer@example.net'],
      detail: 'abuse',
    });
  });

  it('reject: every destination, with the reason', () => {
    expect(toEmailEvent({ eventType: 'Reject', mail, reject: { reason: 'Bad content' } })).toEqual({ ...base, type: 'reject', recipients: mail.destination, detail: 'Bad content' });
  });

  it('delivery delay: the delayed recipients and the delay type', () => {
    expect(toEmailEvent({ eventType: 'DeliveryDelay', mail, deliveryDelay: { delayType: 'MailboxFull', delayedRecipients: [{ emailAddress: 'lender@example.org' }] } })).toEqual({
      ...base,
      type: 'delay',
      recipients: ['lender@example.org'],
      detail: 'MailboxFull',
    });
  });

  it('accepts a legacy notification (notificationType) too', () => {
    expect(toEmailEvent({ notificationType: 'Delivery', mail, delivery: { recipients: ['buyer@example.net'] } })?.type).toBe('delivery');
  });

  it('ignores sends, opens, clicks, rendering failures, and anything without a message id', () => {
    for (const eventType of ['Send', 'Open', 'Click', 'Rendering Failure', 'Subscription']) expect(toEmailEvent({ eventType, mail }), eventType).toBeUndefined();
    expect(toEmailEvent({ eventType: 'Delivery', delivery: { recipients: [] } })).toBeUndefined();
    expect(toEmailEvent({ eventType: 'Bounce', mail: {} })).toBeUndefined();
  });

  it('the handler records each tracked event of the batch and counts the known ones', async () => {
    vi.mocked(recordEmailEvent).mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    const n = await emailEvents(sns([{ eventType: 'Delivery', mail, delivery: { recipients: ['buyer@example.net'] } }, { eventType: 'Open', mail }, { eventType: 'Reject', mail, reject: { reason: 'Virus' } }]));
    expect(n).toBe(1);
    expect(vi.mocked(recordEmailEvent).mock.calls.map(([e]) => e.type)).toEqual(['delivery', 'reject']);
    expect(vi.mocked(recordEmailEvent).mock.calls[0][1]).toBeInstanceOf(Date);
  });
});

describe('inbound-sms', () => {
  const notification = {
    originationNumber: '+15125550143',
    destinationNumber: '+15125550100',
    messageKeyword: 'KEYWORD_111122223333',
    messageBody: 'Got it, thanks',
    inboundMessageId: 'cae173d2-66b9-564c-8309-21f858e9fb84',
    previousPublishedMessageId: 'wJ0APu4ScrIrZNHNRvhNm3d0qtEXAMPLE',
  };

  it('reads sender, our number, body and the inbound id from the SNS message', () => {
    expect(inboundSmsOf(sns([notification]).Records[0])).toEqual({ from: '+15125550143', to: '+15125550100', body: 'Got it, thanks', providerMessageId: notification.inboundMessageId });
  });

  it('an empty body is an empty text; a missing destination is null', () => {
    const { destinationNumber: _d, messageBody: _b, ...rest } = notification;
    expect(inboundSmsOf(sns([rest]).Records[0])).toEqual({ from: '+15125550143', to: null, body: '', providerMessageId: notification.inboundMessageId });
  });

  it('the handler passes each text to receiveSms and skips records that are not inbound texts', async () => {
    vi.mocked(receiveSms).mockResolvedValueOnce('opted_out');
    const outcomes = await inboundSms(sns([{ ...notification, messageBody: 'STOP' }, { some: 'other message' }, { ...notification, inboundMessageId: '' }]));
    expect(outcomes).toEqual(['opted_out']);
    expect(receiveSms).toHaveBeenCalledTimes(1);
    expect(vi.mocked(receiveSms).mock.calls[0][0]).toEqual({ from: '+15125550143', to: '+15125550100', body: 'STOP', providerMessageId: notification.inboundMessageId });
  });

  it('a message that is not JSON fails the invocation (retried, then the failure queue)', async () => {
    await expect(inboundSms(sns(['not json']))).rejects.toThrow(SyntaxError);
  });
});

describe('inbound-email', () => {
  const raw = (head: string, body = 'Thanks!') => Buffer.from(`${head.replace(/\n/g, '\r\n')}\r\n\r\n${body}`);

  it('reads X-Original-To (several, with angle brackets), Delivered-To and X-Envelope-To', () => {
    const found = envelopeRecipientsOf(raw('X-Original-To: reply+aaaaaaaaaaaaaaaaaaaa@reply.test, <archive@reply.test>\nDelivered-To: x@example.net\nX-Envelope-To: <y@example.net>\nSubject: hi'));
    expect(found).toEqual(['reply+aaaaaaaaaaaaaaaaaaaa@reply.test', 'archive@reply.test', 'x@example.net', 'y@example.net']);
  });

  it('unfolds folded header lines', () => {
    expect(envelopeRecipientsOf(raw('X-Original-To: one@reply.test,\n two@reply.test\nSubject: hi'))).toEqual(['one@reply.test', 'two@reply.test']);
  });

  it("takes the recipient of the topmost Received header's for clause (the receiving server's), not older ones", () => {
    const head =
      'Return-Path: <buyer@example.net>\n' +
      'Received: from mail-ed1-f44.example.net (mail-ed1-f44.example.net [209.85.208.44])\n by inbound-smtp.us-east-1.amazonaws.com with SMTP id abc123\n for reply+bbbbbbbbbbbbbbbbbbbb@reply.test;\n Mon, 23 Nov 2026 16:00:00 +0000 (UTC)\n' +
      'Received: by mail-ed1-f44.example.net with SMTP id q1 for <someone@else.example>; Mon, 23 Nov 2026 15:59:59 +0000\n' +
      'Subject: Re: Option period';
    expect(envelopeRecipientsOf(raw(head))).toEqual(['reply+bbbbbbbbbbbbbbbbbbbb@reply.test']);
  });

  it('looks at the header section only', () => {
    expect(envelopeRecipientsOf(raw('Subject: hi', 'X-Original-To: body@reply.test\nReceived: by x for body2@reply.test;'))).toEqual([]);
  });

  it('the handler reads each inbound/ object (decoding the S3 key) and skips other keys', async () => {
    process.env.INBOUND_MAIL_DOMAIN = 'reply.test';
    const event = {
      Records: ['inbound/abc+def%3D1', 'org/o-1/documents/d/x.pdf'].map((key) => ({ s3: { object: { key } } })),
    } as unknown as S3Event;
    const outcomes = await inboundEmail(event);
    expect(outcomes).toEqual([{ outcome: 'unrouted' }]);
    expect(getObjectBytes).toHaveBeenCalledTimes(1);
    expect(getObjectBytes).toHaveBeenCalledWith('inbound/abc def=1');
    const [rawArg, recipients, domain, at] = vi.mocked(receiveEmail).mock.calls[0];
    expect(Buffer.isBuffer(rawArg)).toBe(true);
    expect(recipients).toEqual(['reply+abcdefghijklmnopqrst@reply.test']);
    expect(domain).toBe('reply.test');
    expect(at).toBeInstanceOf(Date);
  });
});

describe('scheduled-send', () => {
  it('refuses input without a non-empty orgId and scheduledMessageId, sending nothing', async () => {
    for (const input of [undefined, {}, { orgId: 'o-1' }, { scheduledMessageId: 'm-1' }, { orgId: '', scheduledMessageId: 'm-1' }, { orgId: 'o-1', scheduledMessageId: 42 }]) {
      await expect(scheduledSend(input as never), JSON.stringify(input)).rejects.toThrow(/orgId and scheduledMessageId/);
    }
    expect(sendScheduledEmail).not.toHaveBeenCalled();
  });

  it('sends the scheduled message once with the request clock, and returns the outcome', async () => {
    vi.mocked(sendScheduledEmail).mockResolvedValueOnce('skipped');
    expect(await scheduledSend({ orgId: 'o-1', scheduledMessageId: 'm-1' })).toEqual({ outcome: 'skipped' });
    expect(sendScheduledEmail).toHaveBeenCalledTimes(1);
    expect(vi.mocked(sendScheduledEmail).mock.calls[0].slice(0, 2)).toEqual(['o-1', 'm-1']);
    expect(vi.mocked(sendScheduledEmail).mock.calls[0][2]).toBeInstanceOf(Date);
  });
});

describe('message-send', () => {
  const outbox = (eventType: string, communicationId: string) =>
    marshall({ PK: `ORG#o-1#EVENT#e-${communicationId}`, SK: 'EVENT', entity: 'OutboxEvent', orgId: 'o-1', envelope: { eventType, eventId: `e-${communicationId}`, timestamp: '2030-03-01T12:00:00.000Z', organizationId: 'o-1', userId: 'u-1', data: { transactionId: 't-1', communicationId, channel: 'email', scheduledMessageId: null } } }) as never;
  const record = (eventName: 'INSERT' | 'MODIFY', image: never, seq: string) => ({ eventID: seq, eventName, eventSource: 'aws:dynamodb', dynamodb: { NewImage: image, SequenceNumber: seq, StreamViewType: 'NEW_IMAGE' } });

  it('sends each message.queued insert once and ignores other records; a failed send is reported for a retry', async () => {
    vi.mocked(deliverQueuedMessage).mockImplementation(async (_org, id) => {
      if (id === 'm-3') throw new Error('provider throttled');
      return 'sent';
    });
    const out = await messageSend(
      { Records: [record('INSERT', outbox('message.queued', 'm-1'), '100'), record('INSERT', outbox('task.created', 'm-2'), '101'), record('MODIFY', outbox('message.queued', 'm-4'), '102'), record('INSERT', outbox('message.queued', 'm-3'), '103')] } as never,
    );
    expect(vi.mocked(deliverQueuedMessage).mock.calls.map((c) => c.slice(0, 2))).toEqual([
      ['o-1', 'm-1'],
      ['o-1', 'm-3'],
    ]);
    expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: '103' }] });
  });

  it('sends each service_email.queued insert once by its emailId; a failed send is reported for a retry', async () => {
    const serviceEmail = (emailId: string) =>
      marshall({ PK: `ORG#o-1#EVENT#e-${emailId}`, SK: 'EVENT', entity: 'OutboxEvent', orgId: 'o-1', envelope: { eventType: 'service_email.queued', eventId: `e-${emailId}`, timestamp: '2030-03-01T12:00:00.000Z', organizationId: 'o-1', userId: null, data: { emailId, purpose: 'disclosure_share' } } }) as never;
    vi.mocked(deliverQueuedMessage).mockClear();
    vi.mocked(deliverQueuedServiceEmail).mockImplementation(async (_org, id) => {
      if (id === 's-2') throw new Error('SES throttled');
      return 'sent';
    });
    const out = await messageSend({ Records: [record('INSERT', serviceEmail('s-1'), '200'), record('MODIFY', serviceEmail('s-3'), '201'), record('INSERT', serviceEmail('s-2'), '202')] } as never);
    expect(vi.mocked(deliverQueuedServiceEmail).mock.calls.map((c) => c.slice(0, 2))).toEqual([
      ['o-1', 's-1'],
      ['o-1', 's-2'],
    ]);
    expect(deliverQueuedMessage).not.toHaveBeenCalled();
    expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: '202' }] });
  });
});
