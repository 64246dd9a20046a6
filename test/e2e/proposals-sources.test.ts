/**
 * Proposals from real sources, over the full local runtime: a filled TREC 20-18 applied to a deal, then an
 * amendment (a second filled TREC 20-18 with a later closing date, uploaded to the same deal) runs through the
 * real extraction pipeline and proposes the new closing date with the extraction's citations; approving it
 * changes the deal. A reply email (local SMTP → inbound handler) and an inbound text (SNS → inbound-sms handler)
 * that state a new date propose it too, with the sentence as evidence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { terminateLocalOcr } from '#ports/ocr-local';
import { buildFixture } from '../fixtures/trec/build-fixtures.ts';
import { fillTrec2018 } from '../fixtures/trec/fill.ts';
import { financedPurchase } from '../fixtures/trec/value-sets.ts';
import { until } from '../support/webhook-receiver.ts';
import { freshKey, header, inboundText, linkContact, newOrg, startMessagingHarness, type MessagingHarness, type TestOrg } from './messaging-fixtures.ts';
import { eventsFor } from './deal-fixtures.ts';

/** The amendment's closing date (the contract says 2025-10-03). */
const AMENDED_CLOSING = '2025-10-17';

let h: MessagingHarness;
let org: TestOrg;
let key: string;
let dealId: string;

const deal = () => h.ok('GET', `/api/v1/transactions/${dealId}`, { key: org.keys.read });
const closing = async () => (await deal()).keyDates.find((k: any) => k.keyDateType === 'ClosingDate')?.dateValue;
const proposals = (q = '') => h.ok('GET', `/api/v1/proposals?transactionId=${dealId}${q}`, { key: org.keys.read });

/** Uploads a PDF (base64) and waits for its extraction job to end. @returns the job */
async function uploadAndExtract(pdf: Uint8Array, fileName: string, transactionId?: string) {
  const up = await h.ok('POST', '/api/v1/documents', { key: org.keys.draft, body: { fileName, contentBase64: Buffer.from(pdf).toString('base64'), ...(transactionId ? { transactionId } : {}) } });
  return until(
    `${fileName} extracted`,
    async () => {
      const j = await h.ok('GET', `/api/v1/extractions/${up.jobId}`, { key: org.keys.read });
      return j.state === 'completed' || j.state === 'failed' ? j : undefined;
    },
    60_000,
    { intervalMs: 200 },
  );
}

beforeAll(async () => {
  h = await startMessagingHarness('proposals-src');
  org = await newOrg('Amendment Realty');
  key = await freshKey(org);
  const fx = await buildFixture('financedPurchase');
  const job = await uploadAndExtract(fx.textPdf, 'TREC 20-18 executed.pdf');
  expect(job.state).toBe('completed');
  dealId = (await h.ok('POST', '/api/v1/transactions', { key, body: { extractionJobId: job.jobId, transactionType: 'Purchase', side: 'Buyer' } })).id;
}, 120_000);
afterAll(async () => {
  await h?.close();
  await terminateLocalOcr();
});

describe('an amendment uploaded to the deal', () => {
  let proposal: any;
  let job: any;

  it('runs through the pipeline and proposes the new closing date, citing the amendment', async () => {
    expect(await closing()).toBe(financedPurchase.closingDate);
    const pdf = await fillTrec2018({ ...financedPurchase, closingDate: AMENDED_CLOSING });
    job = await uploadAndExtract(pdf, 'Amendment - closing date.pdf', dealId);
    expect(job.state, JSON.stringify(job.error)).toBe('completed');
    const list = await proposals();
    expect(list).toHaveLength(1);
    proposal = list[0];
    expect(proposal).toMatchObject({ status: 'pending', source: { type: 'extraction', jobId: job.jobId }, stale: false });
    expect(proposal.parameters.keyDates).toEqual([{ keyDateType: 'ClosingDate', dateValue: AMENDED_CLOSING }]);
    expect(proposal.basis.keyDates).toEqual({ ClosingDate: financedPurchase.closingDate });
    const cite = proposal.evidence.find((e: any) => e.field === 'closingDate');
    expect(cite).toMatchObject({ kind: 'document_citation', keyDateType: 'ClosingDate', jobId: job.jobId, documentId: job.documentId });
    expect(cite.text).toEqual(job.result.fields.closingDate.citations[0].text);
    expect(cite.page).toBe(job.result.fields.closingDate.citations[0].page);
    expect(cite.boundingBox.width).toBeGreaterThan(0);
  }, 90_000);

  it('approving it changes the deal: closing date, tasks that follow it, key_date.updated', async () => {
    const before = await deal();
    const followers = before.tasks.filter((x: any) => x.linkedMilestoneName === 'ClosingDate' && x.status === 'open');
    const r = await h.call('POST', `/api/v1/proposals/${proposal.id}/approve`, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.status).toBe('approved');
    const after = await deal();
    expect(after.keyDates.find((k: any) => k.keyDateType === 'ClosingDate')).toMatchObject({ dateValue: AMENDED_CLOSING, source: 'proposal' });
    for (const f of followers) expect(after.tasks.find((x: any) => x.id === f.id).dueDate > f.dueDate).toBe(true);
    const ev = (await eventsFor(org.orgId, 'key_date.updated', dealId)).at(-1)!;
    expect(ev.data).toMatchObject({ keyDateType: 'ClosingDate', dateValue: AMENDED_CLOSING, previousValue: financedPurchase.closingDate });
  });
});

describe('inbound messages that state a new date', () => {
  it('a reply email saying closing moved proposes that date, quoting the sentence', async () => {
    await linkContact(org, dealId, { name: 'Tobias Renfield', role: 'Buyer', email: 'trenfield@example.org' });
    const sent = await h.ok('POST', `/api/v1/transactions/${dealId}/messages`, { key, body: { toEmail: 'trenfield@example.org', subject: 'Closing', body: 'Hi Tobias, closing is set.' } });
    // The send worker delivers the queued email after the answer.
    const mail = await until('the email at the SMTP server', () => h.mail().find((m) => header(m.raw, 'Message-ID') === sent.emailMessageId), 20_000);
    const replyTo = header(mail.raw, 'Reply-To')!;
    const smtp = nodemailer.createTransport({ url: h.rt.messaging.smtp.url, ignoreTLS: true });
    await smtp.sendMail({
      from: 'Tobias Renfield <trenfield@example.org>',
      to: replyTo,
      subject: 'Re: Closing',
      text: 'Thanks. The lender needs another week, so closing moved to October 24, 2025.\n\n> Hi Tobias, closing is set.',
    });
    const p = await until('email proposal', async () => (await proposals()).find((x: any) => x.source.type === 'email'), 15_000);
    expect(p.parameters.keyDates).toEqual([{ keyDateType: 'ClosingDate', dateValue: '2025-10-24' }]);
    expect(p.basis.keyDates).toEqual({ ClosingDate: AMENDED_CLOSING });
    expect(p.evidence).toEqual([expect.objectContaining({ kind: 'message_excerpt', channel: 'email', from: 'trenfield@example.org', text: 'The lender needs another week, so closing moved to October 24, 2025.' })]);
    expect(p.source.description).toBe('email from trenfield@example.org: Re: Closing');
  }, 30_000);

  it('an inbound text stating a new financing deadline proposes it', async () => {
    await linkContact(org, dealId, { name: 'Desmond Achterberg', role: "Buyer's Agent", phone: '+15125550188' });
    await h.ok('POST', `/api/v1/transactions/${dealId}/conversations`, { key, body: { contactId: null, toPhoneNumber: '+15125550188', messageContent: 'Any news from the lender?', forceOverride: false } });
    expect(await inboundText('+15125550188', 'Yes - financing deadline is extended to Oct 10, 2025.')).toEqual(['threaded']);
    const p = (await proposals()).find((x: any) => x.source.type === 'sms');
    expect(p).toBeDefined();
    expect(p.parameters.keyDates).toEqual([{ keyDateType: 'FinancingDeadline', dateValue: '2025-10-10' }]);
    expect(p.evidence[0]).toMatchObject({ kind: 'message_excerpt', channel: 'sms', from: '+15125550188' });
    // A text with no new date proposes nothing.
    expect(await inboundText('+15125550188', 'Thanks!')).toEqual(['threaded']);
    expect((await proposals()).filter((x: any) => x.source.type === 'sms')).toHaveLength(1);
  });
});
