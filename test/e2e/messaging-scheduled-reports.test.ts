/**
 * Scheduled emails and the communication-log report end to end, against the full local runtime. Scheduling is
 * clock-controlled: the request clock (`setClock`) moves past the send time and the local scheduler's `tick()` fires
 * what is due, as EventBridge Scheduler would. A scheduled email is sent once at its time; a cancelled one never is
 * (cancel honours `Idempotency-Key`; cancelling again is 409). The report comes as JSON inline, and as a PDF and a ZIP
 * (PDF + JSON + the messages' documents) behind a download URL; the test opens both (pdf-lib, pdf.js, fflate).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { strFromU8, unzipSync } from 'fflate';
import { DateTime } from 'luxon';
import { setClock } from '#ports/clock';
import { suppressEmail } from '#db/consent';
import { openPdf } from '#ports/ocr/pdfjs';
import { addLocalSchedule, listLocalSchedules } from '#ports/scheduler/local-store';
import { until } from '../support/webhook-receiver.ts';
import { freshKey, header, inboundText, linkContact, newDeal, newOrg, startMessagingHarness, uploadDocument, type MessagingHarness, type TestOrg } from './messaging-fixtures.ts';

// A scheduled send now waits for the scheduler's target and then the send worker: room for a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

let h: MessagingHarness;
let org: TestOrg;
let other: TestOrg;
let dealId: string;
let buyerId: string;
let key: string;

const scheduled = () => `/api/v1/transactions/${dealId}/scheduled-messages`;
const withSubject = (subject: string) => h.mail().filter((m) => header(m.raw, 'Subject') === subject);
/** A wall-clock time in Chicago `hours` from now (minutes precision). */
const chicagoIn = (hours: number) => DateTime.now().setZone('America/Chicago').plus({ hours }).toFormat("yyyy-MM-dd'T'HH:mm");
/** The message's schedule in the local scheduler's store, if there is one. */
const scheduleOf = (messageId: string) => listLocalSchedules(h.rt.messaging.scheduleStore).schedules.find((s) => s.name === `msg-${messageId}`);
/** The outbox relay (webhook fan-out's stream consumer) creates the schedule after the request committed. */
const relayed = (messageId: string) => until('the outbox relay created the schedule', () => scheduleOf(messageId), 15_000);
/** Moves the request clock `hours` ahead and fires whatever is due. */
async function fastForward(hours: number) {
  setClock(() => Date.now() + hours * 3_600_000);
  await h.rt.messaging.scheduler.tick();
}

beforeAll(async () => {
  h = await startMessagingHarness('msg-sched');
  org = await newOrg('Schedule Realty');
  other = await newOrg('Other Realty');
  dealId = await newDeal(org, '88 Mockingbird Ct');
  buyerId = await linkContact(org, dealId, { name: 'Maria Delgado', role: 'Buyer', email: 'maria@example.com', phone: '+15125550143' });
  key = await freshKey(org);
});
afterEach(() => setClock());
afterAll(() => h.close());

describe('scheduled messages', () => {
  it('is sent once at its time in its time zone by the send worker, then leaves the active list for the sent one', async () => {
    const at = chicagoIn(2);
    const m = await h.ok('POST', scheduled(), { key, body: { scheduledAt: at, scheduledTimezone: 'America/Chicago', toEmail: 'maria@example.com', subject: 'Closing in one week', body: 'Closing is a week out.' } });
    expect(m).toMatchObject({ status: 'pending', scheduledAt: `${at}:00`, scheduledTimezone: 'America/Chicago', toEmail: 'maria@example.com', subject: 'Closing in one week' });
    expect(m.sendAt).toBe(DateTime.fromISO(at, { zone: 'America/Chicago' }).toUTC().toISO());
    expect((await h.ok('GET', scheduled(), { key: org.keys.read })).map((x: any) => x.id)).toEqual([m.id]);
    // Requested with the message (schedule.requested) and created by the relay: its wall-clock time in its zone.
    expect(await relayed(m.id)).toMatchObject({ at: `${at}:00`, timezone: 'America/Chicago', target: 'scheduled-send', payload: { scheduledMessageId: m.id }, dueAt: m.sendAt });

    await fastForward(1);
    expect(withSubject('Closing in one week')).toHaveLength(0);
    await fastForward(3);
    await fastForward(3);
    // The schedule queued it; the send worker sends it and marks the scheduled message sent.
    const listed = await until('the scheduled message listed as sent', async () => (await h.ok('GET', `${scheduled()}?status=sent`, { key: org.keys.read })).find((x: any) => x.id === m.id), 20_000);
    expect(listed).toMatchObject({ status: 'sent', subject: 'Closing in one week' });
    expect(withSubject('Closing in one week')).toHaveLength(1);
    expect(await h.ok('GET', scheduled(), { key: org.keys.read })).toEqual([]);
    const sent = (await h.ok('GET', `/api/v1/transactions/${dealId}/communications`, { key: org.keys.read })).find((x: any) => x.scheduledMessageId === m.id);
    expect(sent).toMatchObject({ id: listed.sentMessageId, kind: 'scheduled_email', status: 'sent', to: [{ address: 'maria@example.com', contactId: null }] });
    await fastForward(3);
    expect(withSubject('Closing in one week')).toHaveLength(1);
    const cancel = await h.call('DELETE', `/api/v1/scheduled-messages/${m.id}`, { key });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.message).toContain('is sent');
  });

  it('a cancelled one never sends; the cancel replays under its Idempotency-Key and is 409 otherwise', async () => {
    const m = await h.ok('POST', scheduled(), { key, body: { scheduledAt: chicagoIn(2), scheduledTimezone: 'America/Chicago', toEmail: 'maria@example.com', subject: 'Never sent', body: 'x' } });
    const schedule = await relayed(m.id);
    const first = await h.call('DELETE', `/api/v1/scheduled-messages/${m.id}`, { key, idempotencyKey: `cancel-${m.id}` });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id: m.id, status: 'cancelled' });
    const replay = await h.call('DELETE', `/api/v1/scheduled-messages/${m.id}`, { key, idempotencyKey: `cancel-${m.id}` });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    const again = await h.call('DELETE', `/api/v1/scheduled-messages/${m.id}`, { key });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');

    // The relay deletes the schedule (schedule.cancel_requested)…
    await until('the outbox relay deleted the schedule', () => !scheduleOf(m.id), 15_000);
    // …and were that deletion to lag, the schedule firing sends nothing: the worker claims only a pending message.
    addLocalSchedule(h.rt.messaging.scheduleStore, schedule);
    await fastForward(5);
    expect(scheduleOf(m.id)).toBeUndefined();
    expect(withSubject('Never sent')).toHaveLength(0);
    expect(await h.ok('GET', scheduled(), { key: org.keys.read })).toEqual([]);
    // History stays listable by status; a status outside the four is refused.
    expect((await h.ok('GET', `${scheduled()}?status=cancelled`, { key: org.keys.read })).map((x: any) => [x.id, x.status])).toContainEqual([m.id, 'cancelled']);
    expect((await h.ok('GET', `${scheduled()}?status=failed`, { key: org.keys.read })).map((x: any) => x.id)).not.toContain(m.id);
    expect((await h.call('GET', `${scheduled()}?status=sending`, { key: org.keys.read })).status).toBe(422);
    expect((await h.call('DELETE', `/api/v1/scheduled-messages/${m.id}`, { key: other.keys.actions })).status).toBe(404);
  });

  it('checks the request now: time, zone, recipients, content (422) and suppressed addresses', async () => {
    const fields = async (body: Record<string, unknown>) => {
      const r = await h.call('POST', scheduled(), { key, body: { toEmail: 'maria@example.com', subject: 's', body: 'b', ...body } });
      expect(r.status, r.text).toBe(422);
      return Object.keys(r.body.error.fields).sort();
    };
    expect(await fields({ scheduledAt: chicagoIn(2) })).toEqual(['scheduledTimezone']);
    expect(await fields({ scheduledAt: chicagoIn(2), scheduledTimezone: 'Mars/Olympus' })).toEqual(['scheduledTimezone']);
    expect(await fields({ scheduledAt: chicagoIn(-1), scheduledTimezone: 'America/Chicago' })).toEqual(['scheduledAt']);
    expect(await fields({ scheduledAt: '2027-03-14T02:30', scheduledTimezone: 'America/Chicago' })).toEqual(['scheduledAt']);
    expect(await fields({ scheduledAt: chicagoIn(2), scheduledTimezone: 'America/Chicago', toEmail: null, subject: null })).toEqual(['subject', 'toEmail']);
    await suppressEmail('gone@example.com', 'complaint', null, org.orgId, new Date());
    const suppressed = await h.call('POST', scheduled(), { key, body: { scheduledAt: chicagoIn(2), scheduledTimezone: 'America/Chicago', toEmail: 'maria@example.com', ccAddresses: 'gone@example.com', subject: 's', body: 'b' } });
    expect(suppressed.status).toBe(409);
    // An instant with an offset needs no zone.
    const utc = await h.ok('POST', scheduled(), { key, body: { scheduledAt: new Date(Date.now() + 7_200_000).toISOString(), toEmail: 'maria@example.com', subject: 'UTC one', body: 'x' } });
    expect(utc.scheduledTimezone).toBe('UTC');
    await h.ok('DELETE', `/api/v1/scheduled-messages/${utc.id}`, { key });
  });
});

describe('communication-log report', () => {
  const report = (query: string, k = org.keys.read) => h.call('GET', `/api/v1/transactions/${dealId}/reports/communication-log${query}`, { key: k });
  let documentId: string;
  beforeAll(async () => {
    documentId = await uploadDocument(h, org, dealId, 'Survey.pdf');
    await h.ok('POST', `/api/v1/transactions/${dealId}/emails/client-update`, {
      key,
      body: { audience: 'buyer', bodyHtml: '<p>The survey is attached – no encroachments. ✓</p>', focus: 'survey', recipientContactId: buyerId, subject: 'Survey received', attachmentDocumentIds: [documentId] },
    });
    await h.ok('POST', `/api/v1/transactions/${dealId}/conversations`, { key, body: { contactId: buyerId, toPhoneNumber: null, messageContent: 'Survey is in your inbox.', forceOverride: false } });
    await inboundText('+15125550143', 'Thanks, looks good');
  });

  it('JSON: the messages of the range, all channels, in time order; a date alone covers its day', async () => {
    const all = (await report('?format=JSON')).body.data;
    expect(all).toMatchObject({ format: 'json', transaction: { id: dealId, address: '88 Mockingbird Ct, Austin, TX 78704' } });
    // The scheduled email of the first tests went out on the moved clock, hours from now: it sorts last.
    expect(all.messages.at(-1).kind).toBe('scheduled_email');
    const kinds = all.messages.slice(0, -1).map((m: any) => `${m.channel} ${m.direction}`);
    expect(kinds.slice(-3)).toEqual(['email outbound', 'sms outbound', 'sms inbound']);
    expect(all.messageCount).toBe(all.messages.length);
    const times = all.messages.map((m: any) => m.createdAt);
    expect([...times].sort()).toEqual(times);

    const today = new Date().toISOString().slice(0, 10);
    expect((await report(`?from=${today}&to=${today}`)).body.data.messages.length).toBe(all.messages.filter((m: any) => m.createdAt.startsWith(today)).length);
    expect((await report('?to=2020-01-01')).body.data.messages).toEqual([]);
    expect((await report('?from=2027-01-02&to=2027-01-01')).status).toBe(422);
    expect((await report('?format=docx')).status).toBe(422);
    expect((await report('', other.keys.read)).status).toBe(404);
  });

  it('PDF: stored behind a short-lived URL; it opens and lists every message', async () => {
    const r = (await report('?format=pdf')).body.data;
    expect(r).toMatchObject({ format: 'pdf', contentType: 'application/pdf', method: 'GET', documentCount: 0 });
    expect(r.fileName).toMatch(/^communication-log-88_Mockingbird_Ct_Austin_TX_78704-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(Date.parse(r.expiresAt) - Date.parse(r.generatedAt)).toBe(900_000);
    const download = await fetch(r.url);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.length).toBe(r.sizeBytes);
    expect((await PDFDocument.load(bytes)).getTitle()).toBe('Communication log: 88 Mockingbird Ct, Austin, TX 78704');
    const text = await pdfText(bytes);
    for (const s of ['Communication log', 'Survey received', 'Documents: Survey.pdf', 'Survey is in your inbox.', 'Thanks, looks good', 'EMAIL outbound', 'SMS inbound', 'no encroachments. ?', `${r.messageCount}.`]) expect(text).toContain(s);
  });

  it('ZIP: the PDF, the JSON and the documents the messages carried', async () => {
    const r = (await report('?format=zip')).body.data;
    expect(r).toMatchObject({ format: 'zip', contentType: 'application/zip', documentCount: 1 });
    const files = unzipSync(new Uint8Array(await (await fetch(r.url)).arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(['communication-log.json', 'communication-log.pdf', 'documents/Survey.pdf']);
    expect(strFromU8(files['documents/Survey.pdf'].subarray(0, 5))).toBe('%PDF-');
    expect((await PDFDocument.load(files['communication-log.pdf'])).getPageCount()).toBeGreaterThan(0);
    const json = JSON.parse(strFromU8(files['communication-log.json']));
    expect(json.messageCount).toBe(r.messageCount);
    expect(json.documents).toEqual([{ documentId, fileName: 'Survey.pdf', path: 'documents/Survey.pdf', sizeBytes: files['documents/Survey.pdf'].length }]);
    expect(json.omittedDocuments).toEqual([]);
  });
});

/** Every page's text, joined. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await openPdf(bytes);
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) pages.push((await (await doc.getPage(i)).getTextContent()).items.map((x: any) => x.str).join('\n'));
  await doc.destroy();
  return pages.join('\n');
}
