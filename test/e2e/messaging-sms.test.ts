/**
 * Deal texting end to end, over HTTP against the full local runtime: the first text to a deal contact lands in the SMS
 * sink and opens a conversation in the merged thread; a reply and an inbound text (AWS End User Messaging's SNS
 * notification → the inbound-sms handler) thread back; the duplicate guard yields to `forceOverride`; STOP opts a
 * number out for good (409 whatever `forceOverride` says, a document share included, which stores no link) until START; documents are shared by secure expiring link
 * (the link works, the thread keeps it elided); 10 parallel identical requests with one `Idempotency-Key` send one text.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { until } from '../support/webhook-receiver.ts';
import { snapshot, snapshotDiff } from '../support/table-snapshot.ts';
import { freshKey, inboundText, linkContact, newDeal, newOrg, settled, startMessagingHarness, uploadDocument, type MessagingHarness, type TestOrg } from './messaging-fixtures.ts';

// Each send now waits for the send worker (a stream poller, then SMTP or the SMS sink): room for a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

let h: MessagingHarness;
let org: TestOrg;
let other: TestOrg;
let dealId: string;
let buyerId: string;
let key: string;

const BUYER_PHONE = '+15125550143';
const conversations = (id = dealId) => `/api/v1/transactions/${id}/conversations`;
const thread = async () => (await h.ok('GET', `/api/v1/transactions/${dealId}/communications`, { key: org.keys.read })) as any[];
const textsTo = (phone: string) => h.texts().filter((t) => t.to === phone);

beforeAll(async () => {
  h = await startMessagingHarness('msg-sms');
  org = await newOrg('Text Realty');
  other = await newOrg('Other Realty');
  dealId = await newDeal(org, '4410 Cedar Bend Dr');
  buyerId = await linkContact(org, dealId, { name: 'Maria Delgado', role: 'Buyer', email: 'maria@example.com', phone: '(512) 555-0143' });
  key = await freshKey(org);
});
afterAll(() => h.close());

describe('conversations', () => {
  let threadId: string;

  it('the first text to a contact lands in the SMS sink, opens a conversation and joins the thread', async () => {
    const sent = await h.ok('POST', conversations(), { key, body: { contactId: buyerId, toPhoneNumber: null, messageContent: 'Hi Maria, the inspection is Tuesday at 10.', forceOverride: false } });
    // Answered once queued; the send worker texts it and records the sending number.
    expect(sent.message).toMatchObject({ channel: 'sms', direction: 'outbound', status: 'queued', bodyText: 'Hi Maria, the inspection is Tuesday at 10.', contactId: buyerId });
    expect(await settled(org.orgId, sent.message.id)).toMatchObject({ status: 'sent', from: { address: '+15550100000' } });
    expect(sent.message.to).toEqual([{ address: BUYER_PHONE, name: 'Maria Delgado', contactId: buyerId }]);
    expect(sent.conversation).toMatchObject({ transactionId: dealId, phoneNumber: BUYER_PHONE, contactId: buyerId, name: 'Maria Delgado', messageCount: 1 });
    threadId = sent.conversation.id;
    expect(textsTo(BUYER_PHONE).map((t) => t.body)).toEqual(['Hi Maria, the inspection is Tuesday at 10.']);

    const list = await h.ok('GET', '/api/v1/conversations?limit=5', { key: org.keys.read });
    expect(list.map((c: any) => c.id)).toContain(threadId);
    expect((await thread()).find((m) => m.id === sent.message.id)).toMatchObject({ channel: 'sms', threadId });
  });

  it('a reply goes into the same conversation; the same text again within 10 minutes needs forceOverride', async () => {
    const reply = await h.ok('POST', `/api/v1/conversations/${threadId}/messages`, { key, body: { messageContent: 'Bring the gate code.', forceOverride: false } });
    expect(reply.conversation).toMatchObject({ id: threadId, messageCount: 2 });
    const again = await h.call('POST', `/api/v1/conversations/${threadId}/messages`, { key, body: { messageContent: 'Bring the gate code.', forceOverride: false } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('forceOverride');
    await h.ok('POST', `/api/v1/conversations/${threadId}/messages`, { key, body: { messageContent: 'Bring the gate code.', forceOverride: true } });
    // Texting the number from the deal again continues the conversation.
    const byNumber = await h.ok('POST', conversations(), { key, body: { contactId: null, toPhoneNumber: '512-555-0143', messageContent: 'One more thing.', forceOverride: false } });
    expect(byNumber.conversation.id).toBe(threadId);
    expect(byNumber.message.contactId).toBe(buyerId);
    await settled(org.orgId, byNumber.message.id);
    await until('the four texts in the sink', () => textsTo(BUYER_PHONE).length >= 4, 15_000);
    expect(textsTo(BUYER_PHONE)).toHaveLength(4);
  });

  it('an inbound text threads back into the conversation and the deal thread', async () => {
    expect(await inboundText(BUYER_PHONE, 'Got it, thanks!')).toEqual(['threaded']);
    const page = await h.call('GET', `/api/v1/conversations/${threadId}/messages`, { key: org.keys.read });
    expect(page.body.conversation).toMatchObject({ id: threadId, optedOut: false });
    const last = page.body.data.at(-1);
    expect(last).toMatchObject({ direction: 'inbound', status: 'received', bodyText: 'Got it, thanks!', contactId: buyerId, threadId });
    expect((await thread()).at(-1).id).toBe(last.id);
    // The team hears of it (an internal event: notifications only).
    const note = await until('the reply notification', async () => (await h.ok('GET', '/api/v1/notifications?limit=5', { key: org.keys.read })).find((n: any) => n.type === 'message.received'), 10_000);
    expect(note).toMatchObject({ title: 'Reply by text', body: 'Maria Delgado replied.', transactionId: dealId, readAt: null });
  });

  it('refuses a missing text or recipient, an unlinked contact and a landline-like number (422)', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const r = await h.call('POST', conversations(), { key, body: { contactId: null, toPhoneNumber: null, messageContent: 'x', forceOverride: false, ...body } });
      expect(r.status, r.text).toBe(422);
      return Object.keys(r.body.error.fields);
    };
    expect(await bad({ messageContent: null, toPhoneNumber: '5125550143' })).toEqual(['messageContent']);
    expect(await bad({})).toEqual(['toPhoneNumber']);
    expect(await bad({ contactId: randomUUID() })).toEqual(['contactId']);
    expect(await bad({ toPhoneNumber: '12' })).toEqual(['toPhoneNumber']);
    expect(await bad({ messageContent: 'x'.repeat(1601), toPhoneNumber: '5125550143' })).toEqual(['messageContent']);
  });

  it('another organization gets 404 on the deal and the conversation', async () => {
    expect((await h.call('POST', conversations(), { key: other.keys.actions, body: { contactId: null, toPhoneNumber: '5125550143', messageContent: 'x', forceOverride: true } })).status).toBe(404);
    expect((await h.call('POST', `/api/v1/conversations/${threadId}/messages`, { key: other.keys.actions, body: { messageContent: 'x', forceOverride: true } })).status).toBe(404);
    expect((await h.call('GET', `/api/v1/conversations/${threadId}/messages`, { key: other.keys.read })).status).toBe(404);
    expect(await h.ok('GET', '/api/v1/conversations', { key: other.keys.read })).toEqual([]);
  });
});

describe('STOP', () => {
  it('opts the number out: later texts are 409 with or without forceOverride, until START', async () => {
    const phone = '+15125550199';
    const sellerId = await linkContact(org, dealId, { name: 'Robert Chen', role: 'Seller', phone });
    const first = await h.ok('POST', conversations(), { key, body: { contactId: sellerId, toPhoneNumber: null, messageContent: 'Hi Robert, the buyer asked for repairs.', forceOverride: false } });
    expect(await settled(org.orgId, first.message.id)).toMatchObject({ status: 'sent' });
    expect(await inboundText(phone, 'STOP')).toEqual(['opted_out']);
    const confirmations = textsTo(phone).length;

    for (const forceOverride of [false, true]) {
      const r = await h.call('POST', conversations(), { key, body: { contactId: sellerId, toPhoneNumber: null, messageContent: `Still there? ${forceOverride}`, forceOverride } });
      expect(r.status).toBe(409);
      expect(r.body.error.message).toMatch(/opted out/);
      const reply = await h.call('POST', `/api/v1/conversations/${first.conversation.id}/messages`, { key, body: { messageContent: 'Hello?', forceOverride } });
      expect(reply.status).toBe(409);
    }
    // A document share to the opted-out number is refused before its link is stored: nothing is left behind.
    const documentId = await uploadDocument(h, org, dealId, 'Repair amendment.pdf');
    const before = await snapshot(false);
    const share = await h.call('POST', `/api/v1/transactions/${dealId}/documents/${documentId}/share`, { key, body: { contactId: sellerId, expirationHours: null, message: null, toPhoneNumber: null } });
    expect(share.status, share.text).toBe(409);
    expect(share.body.error.message).toMatch(/opted out/);
    expect(snapshotDiff(before, await snapshot(false))).toEqual([]);
    expect(textsTo(phone)).toHaveLength(confirmations);
    const page = await h.call('GET', `/api/v1/conversations/${first.conversation.id}/messages`, { key: org.keys.read });
    expect(page.body.conversation.optedOut).toBe(true);
    expect(page.body.data.at(-1)).toMatchObject({ direction: 'inbound', bodyText: 'STOP', statusDetail: 'keyword STOP' });

    expect(await inboundText(phone, 'START')).toEqual(['opted_in']);
    const back = await h.ok('POST', `/api/v1/conversations/${first.conversation.id}/messages`, { key, body: { messageContent: 'Welcome back.', forceOverride: false } });
    expect(await settled(org.orgId, back.message.id)).toMatchObject({ status: 'sent' });
    expect(textsTo(phone).at(-1)!.body).toBe('Welcome back.');
  });
});

describe('documents shared by secure link', () => {
  let documentId: string;
  beforeAll(async () => {
    documentId = await uploadDocument(h, org, dealId, 'Seller disclosure.pdf');
  });

  /** The link in the last text to `phone`. */
  const linkIn = (phone: string) => /(http:\/\/\S+\/l\/[A-Za-z0-9_-]{43})/.exec(textsTo(phone).at(-1)!.body)![1];

  it('texts a working link that expires; the thread keeps the text with the token elided', async () => {
    const shared = await h.ok('POST', `/api/v1/transactions/${dealId}/documents/${documentId}/share`, { key, body: { contactId: buyerId, expirationHours: null, message: 'Here is the disclosure.', toPhoneNumber: null } });
    expect(shared.link).toMatchObject({ documentId, fileName: 'Seller disclosure.pdf', expirationHours: 72 });
    expect(Date.parse(shared.link.expiresAt) - Date.parse(shared.message.createdAt)).toBe(72 * 3_600_000);
    expect(shared.message).toMatchObject({ kind: 'document_share_sms', documents: [{ documentId, fileName: 'Seller disclosure.pdf' }] });
    expect(await settled(org.orgId, shared.message.id)).toMatchObject({ status: 'sent' });

    const url = linkIn(BUYER_PHONE);
    const token = url.split('/l/')[1];
    expect(textsTo(BUYER_PHONE).at(-1)!.body).toMatch(/^Here is the disclosure\.\nhttp.*\n\(Secure link, expires in 3 days\.\)$/);
    expect(shared.message.bodyText).not.toContain(token);
    expect(shared.message.bodyText).toContain(`/l/${token.slice(0, 4)}…`);
    expect(JSON.stringify(await thread())).not.toContain(token);

    const opened = await fetch(url, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    const file = Buffer.from(await (await fetch(opened.headers.get('location')!)).arrayBuffer());
    expect(file.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await fetch(`${url.slice(0, -1)}x`, { redirect: 'manual' })).status).toBe(404);
  });

  it("shares into a conversation; refuses other deals' documents, bad lifetimes and other organizations", async () => {
    const conversation = (await h.ok('GET', '/api/v1/conversations', { key: org.keys.read })).find((c: any) => c.phoneNumber === BUYER_PHONE);
    const shared = await h.ok('POST', `/api/v1/conversations/${conversation.id}/documents`, { key, body: { documentId, expirationHours: 1, message: null } });
    expect(shared.conversation.id).toBe(conversation.id);
    await settled(org.orgId, shared.message.id);
    expect(textsTo(BUYER_PHONE).at(-1)!.body).toContain('Here is "Seller disclosure.pdf" for 4410 Cedar Bend Dr, Austin, TX 78704.');
    expect(textsTo(BUYER_PHONE).at(-1)!.body).toContain('expires in 1 hour');

    const elsewhere = await newDeal(org, '77 Elsewhere Rd');
    const foreignDoc = await uploadDocument(h, org, elsewhere, 'Other.pdf');
    const before = h.texts().length;
    expect((await h.call('POST', `/api/v1/transactions/${dealId}/documents/${foreignDoc}/share`, { key, body: { contactId: buyerId, expirationHours: null, message: null, toPhoneNumber: null } })).status).toBe(404);
    const conv = await h.call('POST', `/api/v1/conversations/${conversation.id}/documents`, { key, body: { documentId: foreignDoc, expirationHours: null, message: null } });
    expect(conv.status).toBe(422);
    expect(conv.body.error.fields).toHaveProperty('documentId');
    const long = await h.call('POST', `/api/v1/conversations/${conversation.id}/documents`, { key, body: { documentId, expirationHours: 169, message: null } });
    expect(long.status).toBe(422);
    expect(long.body.error.fields).toHaveProperty('expirationHours');
    const foreign = await h.call('POST', `/api/v1/transactions/${dealId}/documents/${documentId}/share`, { key: other.keys.actions, body: { contactId: null, expirationHours: null, message: null, toPhoneNumber: '5125550143' } });
    expect(foreign.status).toBe(404);
    expect(h.texts().length).toBe(before);
  });
});

describe('Idempotency-Key on texts', () => {
  it('10 parallel identical requests with one key send one text; a replay says so', async () => {
    const k = await freshKey(org);
    const body = { contactId: buyerId, toPhoneNumber: null, messageContent: `Walkthrough moved to 3 pm (${randomUUID().slice(0, 6)})`, forceOverride: false };
    const results = await Promise.all(Array.from({ length: 10 }, () => h.call('POST', conversations(), { key: k, body, idempotencyKey: 'text-parallel' })));
    expect(results.every((r) => r.status === 200 || r.status === 409), results.map((r) => r.status).join()).toBe(true);
    const ids = new Set(results.filter((r) => r.status === 200).map((r) => r.body.data.message.id));
    expect(ids.size).toBe(1);
    expect(await settled(org.orgId, [...ids][0])).toMatchObject({ status: 'sent' });
    expect(h.texts().filter((t) => t.body === body.messageContent)).toHaveLength(1);
    const replay = await until('a replay of the stored response', async () => {
      const r = await h.call('POST', conversations(), { key: k, body, idempotencyKey: 'text-parallel' });
      return r.status === 200 ? r : undefined;
    }, 5000);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(h.texts().filter((t) => t.body === body.messageContent)).toHaveLength(1);
  });
});
