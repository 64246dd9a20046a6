/**
 * Deal email end to end, over HTTP against the full local runtime: an email to a deal contact arrives at the local
 * SMTP server with our Message-ID and the deal's reply address, and joins the merged thread; a reply sent to that
 * address (nodemailer → local SMTP server → S3 `inbound/` → inbound-email handler) threads back; the four templated
 * emails reach exactly the contact linked with the named role (a contact holding several roles is reached under any
 * of them); suppressed addresses are 409; operations answer with the email `queued` and the send worker sends it
 * (answered even while the mail server holds it); `Idempotency-Key` replays, refuses a different body or operation
 * (422), and 10 parallel identical requests send one email; drafts never send.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import { suppressEmail } from '#db/consent';
import { until } from '../support/webhook-receiver.ts';
import { freshKey, header, linkContact, newDeal, newOrg, settled, startMessagingHarness, uploadDocument, type MessagingHarness, type TestOrg } from './messaging-fixtures.ts';

// Each send now waits for the send worker (a stream poller, then SMTP or the SMS sink): room for a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

let h: MessagingHarness;
let org: TestOrg;
let other: TestOrg;
let dealId: string;
let buyerId: string;
let listingAgentId: string;
let key: string;

const messages = (id = dealId) => `/api/v1/transactions/${id}/messages`;
const thread = async (id = dealId) => (await h.ok('GET', `/api/v1/transactions/${id}/communications`, { key: org.keys.read })) as any[];
/** The email with this Message-ID once the send worker delivered it to the local SMTP server. */
const stored = (emailMessageId: string) => until(`${emailMessageId} at the SMTP server`, () => h.mail().find((m) => header(m.raw, 'Message-ID') === emailMessageId), 15_000);

beforeAll(async () => {
  h = await startMessagingHarness('msg-email');
  org = await newOrg('Email Realty');
  other = await newOrg('Other Realty');
  dealId = await newDeal(org, '1207 Live Oak Ln');
  buyerId = await linkContact(org, dealId, { name: 'Maria Delgado', role: 'Buyer', email: 'maria.delgado@example.com', phone: '+15125550143' });
  listingAgentId = await linkContact(org, dealId, { name: 'Tom Reyes', role: 'Listing Agent', email: 'tom@capitolhomes.example' });
  key = await freshKey(org);
});
afterAll(() => h.close());

describe('POST /transactions/{id}/messages', () => {
  it('delivers to the local SMTP server with our Message-ID and reply address, and joins the thread', async () => {
    const sent = await h.ok('POST', messages(), {
      key,
      body: { toEmail: 'maria.delgado@example.com; lender@example.com', ccAddresses: 'title@example.com', subject: 'Option period ends Friday', body: 'Hi Maria, the option period ends Friday at 5 pm.' },
    });
    // The operation answers once the email is queued; the send worker sends it and marks it sent.
    expect(sent).toMatchObject({ channel: 'email', direction: 'outbound', kind: 'email', status: 'queued', subject: 'Option period ends Friday', transactionId: dealId });
    expect(sent.to).toEqual([
      { address: 'maria.delgado@example.com', name: 'Maria Delgado', contactId: buyerId },
      { address: 'lender@example.com', name: null, contactId: null },
    ]);
    expect(sent.from).toMatchObject({ address: 'deals@tcs.localhost', name: 'Dana Whitfield' });
    expect(sent).not.toHaveProperty('providerMessageId');

    expect(await settled(org.orgId, sent.id)).toMatchObject({ status: 'sent', provider: 'local' });
    const eml = await stored(sent.emailMessageId);
    expect(eml, 'the email reached the local SMTP server').toBeDefined();
    expect(eml.to.sort()).toEqual(['lender@example.com', 'maria.delgado@example.com', 'title@example.com']);
    expect(header(eml.raw, 'Reply-To')).toMatch(/^reply\+[a-z2-7]{20}@reply\.tcs\.localhost$/);
    const parsed = await simpleParser(eml.raw);
    expect(parsed.subject).toBe('Option period ends Friday');
    expect(parsed.text?.trim()).toBe('Hi Maria, the option period ends Friday at 5 pm.');

    const listed = (await thread()).find((m) => m.id === sent.id);
    expect(listed).toMatchObject({ channel: 'email', status: 'sent', emailMessageId: sent.emailMessageId });
  });

  it('a reply to the reply address threads back, and answering it replies to the sender with threading headers', async () => {
    const sent = await h.ok('POST', messages(), { key, body: { toEmail: 'maria.delgado@example.com', subject: 'Inspection booked', htmlBody: '<p>Inspection is <b>Tuesday 10am</b>.</p>' } });
    expect(sent.bodyText).toBe('Inspection is Tuesday 10am.');
    const replyTo = header((await stored(sent.emailMessageId)).raw, 'Reply-To')!;

    const smtp = nodemailer.createTransport({ url: h.rt.messaging.smtp.url, ignoreTLS: true });
    await smtp.sendMail({ from: 'Maria Delgado <maria.delgado@example.com>', to: replyTo, subject: 'Re: Inspection booked', text: 'Great, I will be there.', inReplyTo: sent.emailMessageId, references: [sent.emailMessageId] });
    const reply = await until('the reply in the thread', async () => (await thread()).find((m) => m.direction === 'inbound' && m.inReplyTo === sent.id), 15_000);
    expect(reply).toMatchObject({ channel: 'email', kind: 'reply', status: 'received', subject: 'Re: Inspection booked', contactId: buyerId, recipientRole: 'Buyer' });
    expect(reply.bodyText.trim()).toBe('Great, I will be there.');

    const answer = await h.ok('POST', messages(), { key, body: { replyToMessageId: reply.id, body: 'See you there.' } });
    expect(answer).toMatchObject({ subject: 'Re: Inspection booked', inReplyTo: reply.id, to: [{ address: 'maria.delgado@example.com', contactId: buyerId }] });
    expect(header((await stored(answer.emailMessageId)).raw, 'In-Reply-To')).toBe(reply.emailMessageId);

    const order = (await thread()).map((m) => m.id);
    expect(order.indexOf(sent.id)).toBeLessThan(order.indexOf(reply.id));
    expect(order.indexOf(reply.id)).toBeLessThan(order.indexOf(answer.id));
  });

  it('refuses a templateId, bad addresses, a missing subject or body, and a reply-to message of another deal (422)', async () => {
    const before = h.mail().length;
    const bad = async (body: Record<string, unknown>) => {
      const r = await h.call('POST', messages(), { key, body });
      expect(r.status, r.text).toBe(422);
      return r.body.error.fields;
    };
    expect(await bad({ toEmail: 'maria.delgado@example.com', subject: 'x', body: 'y', templateId: 'option-reminder' })).toHaveProperty('templateId');
    expect(Object.keys(await bad({ toEmail: 'maria@, ok@example.com', ccAddresses: 'nope', subject: 'x', body: 'y' })).sort()).toEqual(['ccAddresses', 'toEmail']);
    expect(Object.keys(await bad({ toEmail: 'maria.delgado@example.com' })).sort()).toEqual(['body', 'subject']);
    const elsewhere = await newDeal(org, '9 Elsewhere Ct');
    const foreign = await h.ok('POST', messages(elsewhere), { key, body: { toEmail: 'a@example.com', subject: 's', body: 'b' } });
    await stored(foreign.emailMessageId);
    expect(await bad({ replyToMessageId: foreign.id, body: 'hi' })).toHaveProperty('replyToMessageId');
    expect(h.mail().length).toBe(before + 1);
  });

  it('a suppressed address is 409 and nothing is sent', async () => {
    await suppressEmail('bounced@example.com', 'bounce', 'smtp; 550 5.1.1 user unknown', org.orgId, new Date());
    const before = h.mail().length;
    const r = await h.call('POST', messages(), { key, body: { toEmail: 'ok@example.com', bccAddresses: 'Bounced@Example.com', subject: 'x', body: 'y' } });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'conflict' });
    expect(r.body.error.message).toContain('suppressed');
    expect(h.mail().length).toBe(before);
  });

  it('is 404 for another organization, whatever the body', async () => {
    const r = await h.call('POST', messages(), { key: other.keys.actions, body: { toEmail: 'maria.delgado@example.com', subject: 'x', body: 'y' } });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });
});

describe('the templated emails reach the contact linked with exactly that role', () => {
  const email = (kind: string) => `/api/v1/transactions/${dealId}/emails/${kind}`;

  it('agent: sent to the listing agent as "Listing Agent"; another or unknown role reaches nobody (422)', async () => {
    const body = { bodyHtml: '<p>Could you confirm the option fee was received?</p>', intent: 'confirm option fee', recipientContactId: listingAgentId, subject: 'Option fee' };
    const sent = await h.ok('POST', email('agent'), { key, body: { ...body, recipientRole: 'Listing Agent' } });
    expect(sent).toMatchObject({ kind: 'agent_email', recipientRole: 'Listing Agent', contactId: listingAgentId, context: { intent: 'confirm option fee' } });
    expect((await stored(sent.emailMessageId)).to).toEqual(['tom@capitolhomes.example']);
    expect(sent.bodyText).toBe('Could you confirm the option fee was received?');

    const before = h.mail().length;
    for (const [role, says] of [
      ['listing agent', /reaches nobody/],
      ["Buyer's Agent", /reaches nobody/],
      ['Buyer', /linked as "Listing Agent"/],
    ] as const) {
      const r = await h.call('POST', email('agent'), { key, body: { ...body, recipientRole: role } });
      expect(r.status, role).toBe(422);
      expect(r.body.error.fields.recipientRole).toMatch(says);
    }
    const stranger = await linkContact(org, await newDeal(org, '5 Other St'), { name: 'Sam Stranger', role: 'Listing Agent', email: 'sam@example.com' });
    const r = await h.call('POST', email('agent'), { key, body: { ...body, recipientContactId: stranger, recipientRole: 'Listing Agent' } });
    expect(r.status).toBe(422);
    expect(r.body.error.fields).toHaveProperty('recipientContactId');
    const nulls = await h.call('POST', email('agent'), { key, body: { ...body, recipientRole: null, subject: null } });
    expect(Object.keys(nulls.body.error.fields).sort()).toEqual(['recipientRole', 'subject']);
    expect(h.mail().length).toBe(before);
  });

  it('agent: a dual agent (one contact, two roles on the deal, linked over the contacts API) is reached under either role', async () => {
    const deal = await newDeal(org, '9 Dual Agency Dr');
    const dual = await h.ok('POST', '/api/v1/contacts', { key, body: { firstName: 'Pat', lastName: 'Both', email: 'pat@bothsides.example' } });
    for (const role of ["Buyer's Agent", 'Listing Agent']) await h.ok('POST', `/api/v1/transactions/${deal}/contacts`, { key, body: { contactId: dual.id, role } });
    const body = { bodyHtml: '<p>Both sides signed.</p>', intent: 'confirm signatures', recipientContactId: dual.id, subject: 'Signatures' };

    for (const role of ["Buyer's Agent", 'Listing Agent']) {
      const sent = await h.ok('POST', `/api/v1/transactions/${deal}/emails/agent`, { key, body: { ...body, recipientRole: role } });
      expect(sent, role).toMatchObject({ recipientRole: role, contactId: dual.id });
      expect((await stored(sent.emailMessageId)).to).toEqual(['pat@bothsides.example']);
    }
    const buyer = await h.call('POST', `/api/v1/transactions/${deal}/emails/agent`, { key, body: { ...body, recipientRole: 'Buyer' } });
    expect(buyer.status).toBe(422);
    expect(buyer.body.error.fields.recipientRole).toMatch(/reaches nobody/);
  });

  it('agent follow-up records its topic; document request lists the document types in both parts', async () => {
    const followup = await h.ok('POST', email('agent-followup'), {
      key,
      body: { bodyHtml: '<p>Any word on the repair amendment?</p>', recipientContactId: listingAgentId, recipientRole: 'Listing Agent', subject: 'Repair amendment', topic: 'repair amendment', tone: 'friendly' },
    });
    expect(followup).toMatchObject({ kind: 'agent_followup_email', context: { topic: 'repair amendment', tone: 'friendly' } });

    const request = await h.ok('POST', email('document-request'), {
      key,
      body: { bodyHtml: '<p>To keep closing on schedule we need:</p>', documentTypes: ['Proof of insurance', 'Signed <lender> disclosures', 'Proof of insurance'], recipientContactId: buyerId, recipientRole: 'Buyer', subject: 'Documents needed' },
    });
    expect(request.context).toEqual({ documentTypes: ['Proof of insurance', 'Signed <lender> disclosures'] });
    const parsed = await simpleParser((await stored(request.emailMessageId)).raw);
    expect(parsed.text).toContain('Proof of insurance');
    expect(parsed.text).toContain('Signed <lender> disclosures');
    expect(parsed.html).toContain('<li>Signed &lt;lender&gt; disclosures</li>');
    const empty = await h.call('POST', email('document-request'), { key, body: { bodyHtml: '<p>x</p>', documentTypes: [], recipientContactId: buyerId, recipientRole: 'Buyer', subject: 'x' } });
    expect(empty.status).toBe(422);
  });

  it('client update attaches deal documents', async () => {
    const documentId = await uploadDocument(h, org, dealId, 'Appraisal report.pdf');
    const sent = await h.ok('POST', email('client-update'), {
      key,
      body: { audience: 'buyer', bodyHtml: '<p>The appraisal came in at value.</p>', focus: 'appraisal', recipientContactId: buyerId, subject: 'Appraisal done', attachmentDocumentIds: [documentId] },
    });
    expect(sent).toMatchObject({ kind: 'client_update_email', recipientRole: 'Buyer', documents: [{ documentId, fileName: 'Appraisal report.pdf' }], context: { audience: 'buyer', focus: 'appraisal' } });
    const parsed = await simpleParser((await stored(sent.emailMessageId)).raw);
    expect(parsed.attachments.map((a) => [a.filename, a.content.subarray(0, 5).toString()])).toEqual([['Appraisal report.pdf', '%PDF-']]);
    const r = await h.call('POST', email('client-update'), { key, body: { audience: 'buyer', bodyHtml: '<p>x</p>', focus: 'x', recipientContactId: buyerId, subject: 'x', attachmentDocumentIds: [randomUUID()] } });
    expect(r.status).toBe(422);
    expect(r.body.error.fields).toHaveProperty(['attachmentDocumentIds[0]']);
  });
});

describe('Idempotency-Key on send', () => {
  it('replays verbatim with Idempotency-Replayed, refuses another body (422), and 10 parallel identical requests send one email', async () => {
    const k = await freshKey(org);
    const body = { toEmail: 'maria.delgado@example.com', subject: `Closing date confirmed ${randomUUID().slice(0, 6)}`, body: 'Closing is confirmed.' };
    const subjectCount = () => h.mail().filter((m) => m.raw.toString().includes(body.subject)).length;

    const first = await h.call('POST', messages(), { key: k, body, idempotencyKey: 'send-1' });
    const again = await h.call('POST', messages(), { key: k, body, idempotencyKey: 'send-1' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    const changed = await h.call('POST', messages(), { key: k, body: { ...body, body: 'Something else.' }, idempotencyKey: 'send-1' });
    expect(changed.status).toBe(422);
    await settled(org.orgId, first.body.data.id);
    expect(subjectCount()).toBe(1);

    const parallel = { ...body, subject: `${body.subject} (parallel)` };
    const results = await Promise.all(Array.from({ length: 10 }, () => h.call('POST', messages(), { key: k, body: parallel, idempotencyKey: 'send-parallel' })));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409), statuses.join()).toBe(true);
    const ids = new Set(results.filter((r) => r.status === 200).map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    expect(await settled(org.orgId, [...ids][0])).toMatchObject({ status: 'sent' });
    expect(h.mail().filter((m) => m.raw.toString().includes(parallel.subject))).toHaveLength(1);
    expect((await thread()).filter((m) => m.subject === parallel.subject)).toHaveLength(1);
  });

  it('the send leaves the request path: answered while the mail server holds the email, replayed by key, sent once on release; the key is then refused for another operation (422)', async () => {
    const k = await freshKey(org);
    const body = { toEmail: 'maria.delgado@example.com', subject: `Held send ${randomUUID().slice(0, 6)}`, body: 'The mail server is slow today.' };
    const hold = h.rt.messaging.smtp.hold();
    let done: Awaited<ReturnType<typeof h.call>>;
    try {
      done = await h.call('POST', messages(), { key: k, body, idempotencyKey: 'send-held' });
      expect(done.status, done.text).toBe(200);
      expect(done.body.data.status).toBe('queued');
      await until('the send worker waiting at the SMTP server', () => hold.waiting() > 0, 10_000);

      const duplicate = await h.call('POST', messages(), { key: k, body, idempotencyKey: 'send-held' });
      expect(duplicate.status, duplicate.text).toBe(200);
      expect(duplicate.headers.get('idempotency-replayed')).toBe('true');
      expect(duplicate.text).toBe(done.text);
    } finally {
      hold.release();
    }
    expect(await settled(org.orgId, done.body.data.id)).toMatchObject({ status: 'sent' });
    const replay = await h.call('POST', messages(), { key: k, body, idempotencyKey: 'send-held' });
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.text).toBe(done.text);
    expect(h.mail().filter((m) => header(m.raw, 'Subject') === body.subject)).toHaveLength(1);

    const text = `Same key, other operation ${randomUUID().slice(0, 6)}`;
    const otherOp = await h.call('POST', `/api/v1/transactions/${dealId}/conversations`, { key: k, body: { contactId: buyerId, toPhoneNumber: null, messageContent: text, forceOverride: false }, idempotencyKey: 'send-held' });
    expect(otherOp.status, otherOp.text).toBe(422);
    expect(otherOp.body.error.fields, otherOp.text).toEqual({ 'Idempotency-Key': 'was already used for a different operation' });
    expect(h.texts().filter((t) => t.body === text)).toHaveLength(0);
  });
});

describe('POST /transactions/{id}/draft-message', () => {
  it('drafts from the intent and the deal facts with built-in wording, and sends nothing', async () => {
    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await h.ok('POST', `/api/v1/transactions/${dealId}/key-dates`, { key, body: { keyDates: [{ keyDateType: 'InspectionDeadline', dateValue: inAWeek }] } });
    const mailBefore = h.mail().length;
    const threadBefore = (await thread()).length;
    const draft = await h.ok('POST', `/api/v1/transactions/${dealId}/draft-message`, {
      key: org.keys.draft,
      body: { intent: 'remind the buyer about the inspection deadline', additionalContext: 'The inspector needs the gate code.', recipientName: 'Maria Delgado', recipientRole: 'Buyer' },
    });
    expect(draft).toMatchObject({ detectedIntent: 'deadline_reminder', generator: 'rules', sent: false });
    expect(draft.subject).toContain('Inspection deadline');
    expect(draft.bodyText).toMatch(/^Hi Maria,/);
    expect(draft.bodyText).toContain('1207 Live Oak Ln');
    expect(draft.bodyText).toContain('The inspector needs the gate code.');
    expect(draft.bodyText).toContain('Dana Whitfield');
    expect(draft.bodyHtml).toContain('<p>Hi Maria,</p>');
    expect(draft.notes.join(' ')).toMatch(/no language model/i);
    expect(h.mail().length).toBe(mailBefore);
    expect((await thread()).length).toBe(threadBefore);
  });
});
