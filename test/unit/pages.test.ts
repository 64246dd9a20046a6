/**
 * Issue 12's pure parts and its push adapter: intake-form validation (what a client sees beside each field), which
 * events notify whom, the public pages' escaping, headers and plain 404, and SNS mobile push (shared/ports/push/aws.ts)
 * against a mocked client (aws-sdk-client-mock): the exact `CreatePlatformEndpoint` and `Publish` inputs.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { CreatePlatformEndpointCommand, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { findForm, formsForSide, SYSTEM_FORMS, validateSubmission } from '#domain/intake-forms';
import { notificationFor } from '#domain/notifications';
import { EVENT_TYPES } from '#events/catalog';
import type { WebhookSubscription } from '#db/webhooks';
import { recipients } from '#use-cases/fan-out';
import type { EventEnvelope } from '#events/outbox';
import { snsPush } from '#ports/push/aws';
import { esc, html, notFound, page } from '#functions/public-links/pages/html';

const buyer = findForm(SYSTEM_FORMS[0]!.id)!;

describe('intake form validation', () => {
  it('accepts a complete submission, trims values and drops unknown names', () => {
    const { values, errors } = validateSubmission(buyer, { fullName: '  Maria Delgado ', email: 'maria@example.com', financing: 'FHA', moveInDate: '2026-12-20', extra: 'x' });
    expect(errors).toEqual({});
    expect(values).toEqual({ fullName: 'Maria Delgado', email: 'maria@example.com', phone: '', lenderName: '', financing: 'FHA', moveInDate: '2026-12-20', notes: '' });
  });

  it('names each bad field and keeps every value', () => {
    const { values, errors } = validateSubmission(buyer, { fullName: '', email: 'maria@', phone: 'call me', financing: 'Barter', moveInDate: '2026-02-30', notes: 'n'.repeat(4001) });
    expect(Object.keys(errors).sort()).toEqual(['email', 'financing', 'fullName', 'moveInDate', 'notes', 'phone']);
    expect(errors.moveInDate).toContain('YYYY-MM-DD');
    expect(values.phone).toBe('call me');
  });

  it('a checkbox is yes or empty; forms follow the deal side', () => {
    const prefs = SYSTEM_FORMS[2]!;
    expect(validateSubmission(prefs, { fullName: 'A', preferredChannel: 'Text', consentToText: 'on' }).values.consentToText).toBe('yes');
    expect(formsForSide('Seller').map((f) => f.purpose)).toEqual(['seller_intake', 'client_contact']);
  });
});

describe('notifications from events', () => {
  const e = (eventType: EventEnvelope['eventType'], data: Record<string, unknown>, userId: string | null = null): EventEnvelope => ({ eventType, eventId: 'e1', timestamp: '2026-11-23T12:00:00.000Z', organizationId: 'o', userId, data }) as EventEnvelope;
  it('a submission and a first view notify everyone; an assigned task only its assignee, not when self-assigned', () => {
    expect(notificationFor(e('form.submission_received', { formPurpose: 'buyer_intake', transactionId: 't' }))).toMatchObject({ to: 'all', body: 'A client submitted the buyer intake form.', transactionId: 't' });
    expect(notificationFor(e('disclosure.recipient_viewed', { email: 'pat@example.com' }))?.body).toBe('pat@example.com opened the disclosure package.');
    expect(notificationFor(e('task.created', { title: 'Order survey', assigneeUserId: 'u2', dueDate: '2026-12-01' }, 'u1'))).toMatchObject({ type: 'task.assigned', to: ['u2'], body: 'Order survey (due 2026-12-01)' });
    expect(notificationFor(e('task.created', { title: 'x', assigneeUserId: 'u1' }, 'u1'))).toBeUndefined();
    expect(notificationFor(e('task.created', { title: 'x', assigneeUserId: null }, 'u1'))).toBeUndefined();
    expect(notificationFor(e('key_date.updated', {}))).toBeUndefined();
  });

  it('a later assignment notifies the new assignee unless self-assigned; a reply notifies everyone', () => {
    expect(notificationFor(e('task.assigned', { title: 'Order survey', assigneeUserId: 'u2', dueDate: null }, 'u1'))).toMatchObject({ type: 'task.assigned', to: ['u2'], body: 'Order survey' });
    expect(notificationFor(e('task.assigned', { title: 'x', assigneeUserId: 'u1' }, 'u1'))).toBeUndefined();
    expect(notificationFor(e('message.received', { transactionId: 't', channel: 'email', from: 'pat@example.com', fromName: 'Pat Buyer', subject: 'Re: Option period' }))).toMatchObject({
      type: 'message.received',
      title: 'Reply by email',
      body: 'Pat Buyer replied: Re: Option period',
      transactionId: 't',
      to: 'all',
    });
    expect(notificationFor(e('message.received', { transactionId: 't', channel: 'sms', from: '+15125550143', fromName: null, subject: null }))).toMatchObject({ title: 'Reply by text', body: '+15125550143 replied.' });
  });

  it('webhooks never carry the internal events, even to a subscription to every event', () => {
    const all = { id: 's1', isActive: true, events: ['*'] } as unknown as WebhookSubscription;
    expect(recipients([all], e('task.assigned', {}))).toEqual([]);
    expect(recipients([all], e('message.received', {}))).toEqual([]);
    expect(recipients([all], e('task.created', {}))).toEqual([all]);
    expect(Object.keys(EVENT_TYPES)).not.toContain('task.assigned');
  });
});

describe('public page HTML', () => {
  it('escapes every interpolated value, scripts allowed nowhere', () => {
    expect(html`<p title="${'"x" <y>'}">${"<script>alert('1')</script>"}</p>`.value).toBe('<p title="&quot;x&quot; &lt;y&gt;">&lt;script&gt;alert(&#39;1&#39;)&lt;/script&gt;</p>');
    expect(esc(null)).toBe('');
    // CSP and branding in detail: test/unit/page-branding.test.ts.
    expect(page('t', html`x`, undefined).headers).toMatchObject({ 'content-security-policy': expect.stringMatching(/^default-src 'none'; style-src 'self'; form-action 'self'/), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  });
  it('the 404 is the same bytes every time', () => {
    expect(notFound()).toEqual(notFound());
    expect(notFound().statusCode).toBe(404);
  });
});

describe('SNS mobile push', () => {
  const sns = mockClient(SNSClient);
  const saved = process.env.PUSH_PLATFORM_APPLICATION_ARN;
  const APP = 'arn:aws:sns:us-east-1:111122223333:app/APNS/tcs';
  beforeEach(() => {
    sns.reset();
    process.env.PUSH_PLATFORM_APPLICATION_ARN = APP;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.PUSH_PLATFORM_APPLICATION_ARN;
    else process.env.PUSH_PLATFORM_APPLICATION_ARN = saved;
    sns.restore();
  });

  it('creates (or finds) the endpoint for the token, then publishes a per-platform message to it', async () => {
    sns.on(CreatePlatformEndpointCommand).resolves({ EndpointArn: `${APP}/ep-1` });
    sns.on(PublishCommand).resolves({ MessageId: 'm-1' });
    const id = await snsPush().send({ deviceId: 'd1', platform: 'ios', pushToken: 'tok' }, { title: 'Disclosure viewed', body: 'pat opened it', data: { transactionId: 't' } });
    expect(id).toBe('m-1');
    expect(sns).toHaveReceivedCommandWith(CreatePlatformEndpointCommand, { PlatformApplicationArn: APP, Token: 'tok', CustomUserData: 'd1' });
    const input = sns.commandCalls(PublishCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ TargetArn: `${APP}/ep-1`, MessageStructure: 'json' });
    const message = JSON.parse(input.Message!);
    expect(message.default).toBe('Disclosure viewed: pat opened it');
    expect(JSON.parse(message.APNS)).toEqual({ aps: { alert: { title: 'Disclosure viewed', body: 'pat opened it' } }, data: { transactionId: 't' } });
    expect(JSON.parse(message.GCM).notification).toEqual({ title: 'Disclosure viewed', body: 'pat opened it' });
  });

  it('sends nothing when no platform application is configured', async () => {
    delete process.env.PUSH_PLATFORM_APPLICATION_ARN;
    expect(await snsPush().send({ deviceId: 'd1', platform: 'ios', pushToken: 'tok' }, { title: 't', body: 'b', data: {} })).toBeNull();
    expect(sns.calls()).toHaveLength(0);
  });
});
