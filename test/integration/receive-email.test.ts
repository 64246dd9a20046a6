/**
 * Received replies threaded on DynamoDB Local (shared/use-cases/messaging/receive-email.ts, parsing with postal-mime):
 * a reply whose client kept only `References` still joins the message it answers; an ISO-2022-JP reply and an
 * HTML-only reply are stored with readable text; a redelivery of the same Message-ID is recorded once; mail to an
 * unknown reply token is unrouted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestTable } from '../support/test-table.ts';
import { createOrganization } from '#db/orgs';
import { getCommunication } from '#db/communications';
import { createTransaction } from '#use-cases/create-transaction';
import { queueDealEmail, replyAddressOf } from '#use-cases/messaging/send-email';
import { receiveEmail } from '#use-cases/messaging/receive-email';
import type { Actor } from '#events/outbox';

const DOMAIN = 'reply.receive-email.test';
const NOW = new Date('2030-05-04T15:00:00.000Z');
let actor: Actor;
let dealId: string;
let replyTo: string;
let sentId: string;
let sentMessageId: string;

/** A raw message: header lines and a body (Buffer chunks kept as bytes), CRLF line ends. */
const eml = (head: string, ...body: (string | Buffer)[]): Buffer =>
  Buffer.concat([Buffer.from(`${head.trim().replace(/\n/g, '\r\n')}\r\n\r\n`), ...body.map((b) => (typeof b === 'string' ? Buffer.from(b.replace(/\n/g, '\r\n')) : b))]);

beforeAll(async () => {
  await useTestTable();
  vi.stubEnv('INBOUND_MAIL_DOMAIN', DOMAIN);
  vi.stubEnv('MAIL_FROM_ADDRESS', 'deals@receive-email.test');
  const org = await createOrganization({ name: 'Inbound Realty', ownerEmail: 'owner@receive-email.test' });
  actor = { orgId: org.orgId, userId: org.ownerUserId };
  dealId = (await createTransaction(actor, { propertyAddress: { street: '1207 Live Oak Ln', city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract' }, undefined, NOW)).id;
  const sent = await queueDealEmail(actor, { transactionId: dealId, kind: 'email', to: [{ address: 'maria@example.com', name: 'Maria', contactId: null }], subject: 'Inspection booked', text: 'Tuesday at 10.' }, NOW);
  sentId = sent.id;
  sentMessageId = sent.emailMessageId!;
  replyTo = await replyAddressOf(actor.orgId, dealId);
});
afterAll(() => vi.unstubAllEnvs());

describe('receiveEmail', () => {
  it('threads a reply that names the message only in References, and records a redelivery once', async () => {
    const raw = eml(`From: Maria <maria@example.com>\nTo: ${replyTo}\nSubject: Re: Inspection booked\nMessage-ID: <r1@mail.example.com>\nReferences: <older@elsewhere.example> ${sentMessageId}`, 'Works for me.\n');
    const outcome = await receiveEmail(raw, [], DOMAIN, NOW);
    expect(outcome).toMatchObject({ outcome: 'threaded', transactionId: dealId });
    const stored = await getCommunication(actor.orgId, (outcome as { messageId: string }).messageId);
    expect(stored).toMatchObject({ inReplyTo: sentId, subject: 'Re: Inspection booked', bodyText: 'Works for me.\n', bodyHtml: null, emailMessageId: '<r1@mail.example.com>', from: { address: 'maria@example.com', name: 'Maria' } });
    expect(await receiveEmail(raw, [], DOMAIN, NOW)).toEqual({ outcome: 'duplicate' });
  });

  it('stores an ISO-2022-JP reply decoded, found through the envelope recipient (Bcc)', async () => {
    // 内覧は火曜日です。 in ISO-2022-JP (RFC 1468).
    const jis = Buffer.from('1b244246624d77244f32504d4b467c2447243921231b2842', 'hex');
    const raw = eml(`From: tanaka@example.jp\nTo: agent@example.jp\nSubject: =?ISO-2022-JP?B?GyRCN0BMcz1xGyhC?=\nMessage-ID: <r2@mail.example.jp>\nIn-Reply-To: ${sentMessageId}\nContent-Type: text/plain; charset=ISO-2022-JP`, jis, '\n');
    const outcome = await receiveEmail(raw, [replyTo], DOMAIN, NOW);
    const stored = await getCommunication(actor.orgId, (outcome as { messageId: string }).messageId);
    expect(stored).toMatchObject({ subject: '契約書', inReplyTo: sentId });
    expect(stored.bodyText.trim()).toBe('内覧は火曜日です。');
  });

  it('derives the text of an HTML-only reply and keeps its HTML', async () => {
    const html = '<div>Closing moved to <b>June 12</b>.</div><div>Tom</div>';
    const outcome = await receiveEmail(eml(`From: tom@example.com\nTo: ${replyTo}\nSubject: Closing\nMessage-ID: <r3@mail.example.com>\nContent-Type: text/html; charset=utf-8`, html), [], DOMAIN, NOW);
    const stored = await getCommunication(actor.orgId, (outcome as { messageId: string }).messageId);
    expect(stored.bodyHtml?.trim()).toBe(html);
    expect(stored.bodyText).toBe('Closing moved to June 12.\n\nTom');
    expect(stored.inReplyTo).toBeNull();
  });

  it('drops mail to an unknown reply token as unrouted', async () => {
    const raw = eml(`From: x@example.com\nTo: reply+aaaaaaaaaaaaaaaaaaaa@${DOMAIN}\nSubject: hi\nMessage-ID: <r4@mail.example.com>`, 'hello\n');
    expect(await receiveEmail(raw, [], DOMAIN, NOW)).toEqual({ outcome: 'unrouted' });
  });
});
