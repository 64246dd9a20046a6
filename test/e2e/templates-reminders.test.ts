/**
 * Email templates, merge fields, render previews, status summaries and deadline reminders end to end, against the
 * full local runtime (SMTP server, local scheduler). Reminders are clock-controlled: the request clock (`setClock`)
 * moves past the reminder's time and the local scheduler's `tick()` fires what is due, as EventBridge Scheduler
 * would. A reminder is sent once at its time of day in the organization's time zone; moving its key date moves it
 * (nothing goes out at the old time) or, when the new time has passed, expires it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { setClock } from '#ports/clock';
import { setOrganizationTimezone } from '#db/orgs';
import { listLocalSchedules } from '#ports/scheduler/local-store';
import { until } from '../support/webhook-receiver.ts';
import { freshKey, header, linkContact, newDeal, newOrg, settled, startMessagingHarness, type MessagingHarness, type TestOrg } from './messaging-fixtures.ts';

let h: MessagingHarness;
let org: TestOrg;
let other: TestOrg;
let key: string;
let dealId: string;

/** A calendar date in Chicago `days` from today. */
const chicagoDate = (days: number) => DateTime.now().setZone('America/Chicago').plus({ days }).toISODate()!;
/** `June 1, 2030` for a `YYYY-MM-DD`. */
const long = (d: string) => DateTime.fromISO(d).toFormat('LLLL d, yyyy');
/** Moves the request clock `days` ahead of now and fires whatever is due. */
async function fastForward(days: number) {
  setClock(() => Date.now() + days * 86_400_000);
  await h.rt.messaging.scheduler.tick();
}
/** The names of the local scheduler's waiting schedules of reminder `id` (`rem-<id>-<generation>`). */
const schedulesOf = (id: string) => listLocalSchedules(h.rt.messaging.scheduleStore).schedules.filter((s) => s.name.startsWith(`rem-${id}-`)).map((s) => s.name);
/** Waits until the outbox relay (webhook fan-out's stream consumer) has made reminder `id`'s schedules exactly `names`. */
const relayed = (id: string, names: string[]) => until(`the outbox relay's schedules of ${id}: ${names.join(', ') || 'none'}`, () => JSON.stringify(schedulesOf(id)) === JSON.stringify(names), 15_000, { detail: () => schedulesOf(id) });
const mailTo = (address: string) => h.mail().filter((m) => (header(m.raw, 'To') ?? '').includes(address));
const deal = (id = dealId, k = org.keys.read) => h.ok('GET', `/api/v1/transactions/${id}`, { key: k });
async function fields(method: string, path: string, body: unknown, k = key): Promise<Record<string, string>> {
  const r = await h.call(method, path, { key: k, body });
  expect(r.status, r.text).toBe(422);
  expect(r.body.error.code).toBe('validation_error');
  return r.body.error.fields;
}

beforeAll(async () => {
  h = await startMessagingHarness('tpl-rem');
  org = await newOrg('Live Oak Realty');
  other = await newOrg('Other Realty');
  key = await freshKey(org);
  dealId = await newDeal(org, '1207 Live Oak Ln');
  await linkContact(org, dealId, { name: 'Maria Delgado', role: 'Buyer', email: 'maria@example.com' });
  await linkContact(org, dealId, { name: 'Jo Park', role: "Buyer's Agent", email: 'jo@example.com' });
  await linkContact(org, dealId, { name: 'Ann Lee', role: 'Escrow Officer / Title', email: null });
  await h.ok('POST', `/api/v1/transactions/${dealId}/key-dates`, { key, body: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: chicagoDate(10) }] } });
});
afterEach(() => setClock());
afterAll(() => h.close());

describe('email templates', () => {
  it('lists the system templates with the organization’s active ones; filters and search; limit', async () => {
    const all = await h.ok('GET', '/api/v1/email-templates', { key: org.keys.read });
    expect(all.map((t: any) => t.slug)).toEqual(expect.arrayContaining(['under-contract', 'option-period-ending', 'clear-to-close', 'closing-reminder', 'document-request']));
    expect(all.every((t: any) => t.source === 'system' && t.isActive)).toBe(true);
    const closing = all.find((t: any) => t.slug === 'closing-reminder');
    expect(closing.mergeFields).toEqual(expect.arrayContaining(['keyDates.ClosingDate', 'property.address', 'client.firstName']));
    expect((await h.ok('GET', '/api/v1/email-templates?category=DEADLINE', { key: org.keys.read })).map((t: any) => t.slug).sort()).toEqual(['closing-reminder', 'option-period-ending']);
    expect((await h.ok('GET', '/api/v1/email-templates?search=clear%20to', { key: org.keys.read })).map((t: any) => t.slug)).toEqual(['clear-to-close']);
    expect(await h.ok('GET', '/api/v1/email-templates?limit=2', { key: org.keys.read })).toHaveLength(2);
    expect((await h.call('GET', '/api/v1/email-templates?limit=0', { key: org.keys.read })).status).toBe(422);
  });

  it('creates an organization template (slug from the name, never a system slug); reads it by id or slug; only its organization sees it', async () => {
    const body = { name: 'Appraisal ordered', subject: 'Appraisal ordered: {{property.address}}', body: 'Hi {{client.firstName}}, closing stays {{keyDates.ClosingDate}}.', category: 'milestone', audience: 'client' };
    const t = await h.ok('POST', '/api/v1/email-templates', { key, body });
    expect(t).toMatchObject({ slug: 'appraisal-ordered', source: 'organization', isActive: true, mergeFields: ['property.address', 'client.firstName', 'keyDates.ClosingDate'] });
    expect((await h.ok('POST', '/api/v1/email-templates', { key, body })).slug).toBe('appraisal-ordered-2');
    expect((await h.ok('POST', '/api/v1/email-templates', { key, body: { ...body, name: 'Closing reminder' } })).slug).toBe('closing-reminder-2');
    const hidden = await h.ok('POST', '/api/v1/email-templates', { key, body: { ...body, name: 'Old one', isActive: false } });

    expect(await h.ok('GET', `/api/v1/email-templates/${t.id}`, { key: org.keys.read })).toEqual(t);
    expect(await h.ok('GET', '/api/v1/email-templates/appraisal-ordered', { key: org.keys.read })).toEqual(t);
    expect((await h.ok('GET', '/api/v1/email-templates/closing-reminder', { key: org.keys.read })).source).toBe('system');
    expect((await h.ok('GET', `/api/v1/email-templates/${hidden.slug}`, { key: org.keys.read })).isActive).toBe(false);
    const listed = (await h.ok('GET', '/api/v1/email-templates?category=milestone', { key: org.keys.read })).map((x: any) => x.slug);
    expect(listed).toEqual(expect.arrayContaining(['appraisal-ordered', 'appraisal-ordered-2', 'under-contract']));
    expect(listed).not.toContain('old-one');

    for (const ref of [t.id, 'appraisal-ordered', 'no-such-template']) {
      const r = await h.call('GET', `/api/v1/email-templates/${ref}`, { key: other.keys.read });
      expect(r.status, ref).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    expect((await h.ok('GET', '/api/v1/email-templates', { key: other.keys.read })).some((x: any) => x.source === 'organization')).toBe(false);
    expect((await h.call('POST', '/api/v1/email-templates', { key: org.keys.draft, body })).status).toBe(403);
  });

  it('refuses a template without name, subject or body, that does not parse, uses unsupported syntax or unknown fields', async () => {
    expect(Object.keys(await fields('POST', '/api/v1/email-templates', { name: ' ', subject: null }))).toEqual(['name', 'subject', 'body']);
    const bad = await fields('POST', '/api/v1/email-templates', { name: 'Bad', subject: 'Hi {{client.firstName', body: '{{#each parties}}{{name}}{{/each}} {{buyer.name}}' });
    expect(bad.subject).toContain('does not parse');
    expect(bad.body).toContain('unsupported');
    expect((await fields('POST', '/api/v1/email-templates', { name: 'Bad', subject: 'x', body: 'Dear {{buyer.name}} {{parties.buyer.nmae}}' })).body).toContain('unknown merge fields: buyer.name, parties.buyer.nmae');
    expect((await fields('POST', '/api/v1/email-templates', { name: 'Bad', subject: 'two\nlines', body: 'x' })).subject).toBe('must be one line');
  });
});

describe('merge fields and render preview', () => {
  it('lists the deal’s merge fields with values (null where it has none)', async () => {
    const list = await h.ok('GET', `/api/v1/transactions/${dealId}/merge-fields`, { key: org.keys.read });
    const value = Object.fromEntries(list.map((f: any) => [f.name, f.value]));
    expect(value).toMatchObject({
      'property.address': '1207 Live Oak Ln, Austin, TX 78704',
      'client.firstName': 'Maria',
      'parties.buyersAgent.email': 'jo@example.com',
      'parties.escrowOfficerTitle.name': 'Ann Lee',
      'parties.escrowOfficerTitle.email': null,
      'keyDates.ClosingDate': long(chicagoDate(10)),
      'keyDates.InspectionDeadline': null,
      'organization.name': 'Live Oak Realty',
    });
    expect((await h.call('GET', `/api/v1/transactions/${dealId}/merge-fields`, { key: other.keys.read })).status).toBe(404);
  });

  it('renders a template by slug or id; missing and unknown fields are kept as written and listed; nothing is sent', async () => {
    const before = h.mail().length;
    const r = await h.ok('POST', `/api/v1/transactions/${dealId}/render-template`, { key: org.keys.read, body: { slug: 'closing-reminder', templateId: null } });
    expect(r).toMatchObject({ template: { slug: 'closing-reminder', source: 'system' }, subject: `Closing on ${long(chicagoDate(10))}: 1207 Live Oak Ln, Austin, TX 78704`, missingFields: [], unknownFields: [], complete: true });
    expect(r.body).toContain('Hi Maria,');
    const option = await h.ok('POST', `/api/v1/transactions/${dealId}/render-template`, { key: org.keys.read, body: { slug: null, templateId: '5e1f0c2a-8d1b-4c6e-9a01-000000000002' } });
    expect(option).toMatchObject({ complete: false, missingFields: ['keyDates.InspectionDeadline'] });
    expect(option.subject).toBe('Option period ends {{keyDates.InspectionDeadline}}: 1207 Live Oak Ln, Austin, TX 78704');
    expect(h.mail().length).toBe(before);

    const both = await fields('POST', `/api/v1/transactions/${dealId}/render-template`, { slug: null, templateId: null }, org.keys.read);
    expect(Object.keys(both).sort()).toEqual(['slug', 'templateId']);
    expect(Object.keys(await fields('POST', `/api/v1/transactions/${dealId}/render-template`, { slug: null, templateId: '00000000-0000-4000-8000-000000000000' }, org.keys.read))).toEqual(['templateId']);
    expect(Object.keys(await fields('POST', `/api/v1/transactions/${dealId}/render-template`, { slug: 'under-contract', templateId: '5e1f0c2a-8d1b-4c6e-9a01-000000000002' }, org.keys.read))).toEqual(['slug']);
    expect((await h.call('POST', `/api/v1/transactions/${dealId}/render-template`, { key: other.keys.read, body: { slug: 'closing-reminder', templateId: null } })).status).toBe(404);
  });
});

describe('status summaries', () => {
  it('saves one per audience (again replaces it, case-insensitively), listed on the deal', async () => {
    const path = `/api/v1/transactions/${dealId}/status-summary`;
    const first = await h.ok('POST', path, { key: org.keys.draft, body: { audience: 'client', subject: 'Week 1', bodyMarkdown: 'Option period **ended**.', keyPointBullets: ['Repairs agreed', ' '] } });
    expect(first).toMatchObject({ transactionId: dealId, audience: 'client', subject: 'Week 1', keyPointBullets: ['Repairs agreed'] });
    const agent = await h.ok('POST', path, { key: org.keys.draft, body: { audience: 'Listing agent', subject: null, bodyMarkdown: null, keyPointBullets: ['Appraisal ordered'] } });
    const again = await h.ok('POST', path, { key: org.keys.draft, body: { audience: 'Client', subject: 'Week 2', bodyMarkdown: 'Appraisal ordered.', keyPointBullets: null } });
    expect(again).toMatchObject({ audience: 'Client', subject: 'Week 2', keyPointBullets: [], createdAt: first.createdAt });
    const listed = (await deal()).statusSummaries;
    expect(listed.map((s: any) => s.audience).sort()).toEqual(['Client', 'Listing agent']);
    expect(listed.find((s: any) => s.audience === 'Listing agent')).toEqual(agent);

    expect(Object.keys(await fields('POST', path, { audience: null, bodyMarkdown: ' ', subject: null, keyPointBullets: [] }, org.keys.draft)).sort()).toEqual(['audience', 'bodyMarkdown']);
    expect((await h.call('POST', path, { key: org.keys.read, body: { audience: 'client', bodyMarkdown: 'x', subject: null, keyPointBullets: null } })).status).toBe(403);
    expect((await h.call('POST', path, { key: other.keys.draft, body: { audience: 'client', bodyMarkdown: 'x', subject: null, keyPointBullets: null } })).status).toBe(404);
  });
});

describe('reminders', () => {
  const reminders = (id = dealId) => `/api/v1/transactions/${id}/reminders`;
  const base = { daysBeforeReminder: 3, deadlineDate: null, deadlineType: 'ClosingDate', emailTemplateId: null, milestoneId: null, note: null, recipientEmails: null, recipientRoles: 'Buyer', reminderTimeOfDay: '09:00' };

  it('fires once, N days before the key date at its time of day in the organization’s time zone, to roles and addresses', async () => {
    const r = await h.ok('POST', reminders(), {
      key,
      body: { ...base, emailTemplateId: '5e1f0c2a-8d1b-4c6e-9a01-000000000004', recipientRoles: "Buyer, Buyer's Agent", recipientEmails: 'tc@example.com' },
    });
    const local = `${chicagoDate(7)}T09:00:00`;
    expect(r).toMatchObject({ status: 'pending', deadlineDate: chicagoDate(10), timezone: 'America/Chicago', scheduledLocal: local, generation: 1, recipientRoles: ['Buyer', "Buyer's Agent"], recipientEmails: ['tc@example.com'] });
    expect(r.sendAt).toBe(DateTime.fromISO(local, { zone: 'America/Chicago' }).toUTC().toISO());
    expect((await deal()).reminders.map((x: any) => x.id)).toContain(r.id);
    await relayed(r.id, [`rem-${r.id}-1`]);

    const subject = `Closing on ${long(chicagoDate(10))}: 1207 Live Oak Ln, Austin, TX 78704`;
    const sent = () => h.mail().filter((m) => header(m.raw, 'Subject') === subject);
    await fastForward(5);
    expect(sent()).toHaveLength(0);
    await fastForward(8);
    await fastForward(8);
    // The schedule queued the email; the send worker sends it.
    await until('the reminder at the SMTP server', () => sent().length > 0, 20_000);
    expect(sent()).toHaveLength(1);
    expect(header(sent()[0].raw, 'To')).toEqual(expect.stringContaining('maria@example.com'));
    expect(header(sent()[0].raw, 'To')).toEqual(expect.stringContaining('jo@example.com'));
    expect(header(sent()[0].raw, 'To')).toEqual(expect.stringContaining('tc@example.com'));
    const after = (await deal()).reminders.find((x: any) => x.id === r.id);
    expect(after).toMatchObject({ status: 'sent', error: null });
    expect(await settled(org.orgId, after.sentMessageId)).toMatchObject({ kind: 'reminder_email', status: 'sent' });
    const comm = (await h.ok('GET', `/api/v1/transactions/${dealId}/communications`, { key: org.keys.read })).find((m: any) => m.id === after.sentMessageId);
    expect(comm).toMatchObject({ kind: 'reminder_email', status: 'sent' });
  });

  it('moves with its key date: nothing goes out at the old time, once at the new; a move into the past expires it', async () => {
    const d = await newDeal(org, '4 Elm St');
    await linkContact(org, d, { name: 'Pat Moss', role: 'Buyer', email: 'pat@example.com' });
    await h.ok('POST', `/api/v1/transactions/${d}/key-dates`, { key, body: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: chicagoDate(20) }, { keyDateType: 'InspectionDeadline', dateValue: chicagoDate(12) }] } });
    const r = await h.ok('POST', reminders(d), { key, body: { ...base, daysBeforeReminder: 2, reminderTimeOfDay: '4:30 pm', note: 'Bring ID.' } });
    expect(r.scheduledLocal).toBe(`${chicagoDate(18)}T16:30:00`);
    const doomed = await h.ok('POST', reminders(d), { key, body: { ...base, deadlineType: 'InspectionDeadline', daysBeforeReminder: 1 } });
    await relayed(r.id, [`rem-${r.id}-1`]);
    await relayed(doomed.id, [`rem-${doomed.id}-1`]);

    await h.ok('PATCH', `/api/v1/transactions/${d}/key-dates/ClosingDate`, { key, body: { newValue: chicagoDate(30), source: 'Amendment 1', calculationNotes: null } });
    await h.ok('PATCH', `/api/v1/transactions/${d}/key-dates/InspectionDeadline`, { key, body: { newValue: chicagoDate(0), source: 'Amendment 1', calculationNotes: null } });
    const moved = (await deal(d)).reminders;
    expect(moved.find((x: any) => x.id === r.id)).toMatchObject({ status: 'pending', deadlineDate: chicagoDate(30), scheduledLocal: `${chicagoDate(28)}T16:30:00`, generation: 2 });
    expect(moved.find((x: any) => x.id === doomed.id)).toMatchObject({ status: 'expired', deadlineDate: chicagoDate(0) });
    // The move requested generation 2's schedule and the deletion of generation 1's; the expired one has none left.
    await relayed(r.id, [`rem-${r.id}-2`]);
    await relayed(doomed.id, []);

    await fastForward(19);
    expect(mailTo('pat@example.com')).toHaveLength(0);
    await fastForward(29);
    await fastForward(29);
    await until('the moved reminder at the SMTP server', () => mailTo('pat@example.com').length > 0, 20_000);
    const mails = mailTo('pat@example.com');
    expect(mails).toHaveLength(1);
    expect(header(mails[0].raw, 'Subject')).toBe(`Reminder: Closing date on ${long(chicagoDate(30))} (4 Elm St, Austin, TX 78704)`);
    expect(mails[0].raw.toString('utf8')).toContain('Bring ID.');
    expect((await deal(d)).reminders.map((x: any) => x.status).sort()).toEqual(['expired', 'sent']);
  });

  it('uses the organization’s time zone', async () => {
    const tokyo = await newOrg('Tokyo Realty');
    await setOrganizationTimezone(tokyo.orgId, 'Asia/Tokyo');
    const d = await newDeal(tokyo, '9 Sakura Way');
    await linkContact(tokyo, d, { name: 'Ken Sato', role: 'Buyer', email: 'ken@example.com' });
    await h.ok('POST', `/api/v1/transactions/${d}/key-dates`, { key: tokyo.keys.draft, body: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2030-06-10' }] } });
    const r = await h.ok('POST', reminders(d), { key: tokyo.keys.actions, body: base });
    expect(r).toMatchObject({ timezone: 'Asia/Tokyo', scheduledLocal: '2030-06-07T09:00:00', sendAt: '2030-06-07T00:00:00.000Z' });
  });

  it('refuses what it could not send: no deadline, a passed time, roles reaching nobody, no recipients, bad time, a template with blanks', async () => {
    const f = (body: Record<string, unknown>) => fields('POST', reminders(), { ...base, ...body });
    expect(Object.keys(await f({ deadlineType: 'FinancingDeadline' }))).toEqual(['deadlineDate']);
    expect(Object.keys(await f({ deadlineType: null }))).toEqual(['deadlineType']);
    expect((await f({ deadlineDate: '2030-01-01' })).deadlineDate).toContain('follows the key date');
    expect(Object.keys(await f({ daysBeforeReminder: 11 }))).toEqual(['daysBeforeReminder']);
    expect((await f({ recipientRoles: 'Seller' })).recipientRoles).toContain('reaches nobody');
    expect((await f({ recipientRoles: 'buyer' })).recipientRoles).toContain('roles match exactly');
    expect((await f({ recipientRoles: 'Escrow Officer / Title' })).recipientRoles).toContain('no contact with that role has an email');
    expect(Object.keys(await f({ recipientRoles: null }))).toEqual(['recipientRoles']);
    expect(Object.keys(await f({ recipientEmails: 'not-an-address' }))).toEqual(['recipientEmails']);
    expect(Object.keys(await f({ reminderTimeOfDay: '25:00' }))).toEqual(['reminderTimeOfDay']);
    expect(Object.keys(await f({ emailTemplateId: '00000000-0000-4000-8000-000000000000' }))).toEqual(['emailTemplateId']);
    expect((await f({ emailTemplateId: '5e1f0c2a-8d1b-4c6e-9a01-000000000002' })).emailTemplateId).toContain('keyDates.InspectionDeadline');
    // A fixed deadline (no key date of that type) is fine.
    const fixed = await h.ok('POST', reminders(), { key, body: { ...base, deadlineType: 'HOA_Docs_Due', deadlineDate: `${chicagoDate(40)}T00:00:00Z` } });
    expect(fixed).toMatchObject({ deadlineType: 'HOA_Docs_Due', deadlineDate: chicagoDate(40) });
    expect((await h.call('POST', reminders(), { key: org.keys.draft, body: base })).status).toBe(403);
    expect((await h.call('POST', reminders(), { key: other.keys.actions, body: base })).status).toBe(404);
  });
});
