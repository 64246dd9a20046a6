/** Contacts over HTTP: create (contact.created, one per email), list/search, get with activity, update. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { communicationPuts, type Communication } from '#db/communications';
import { transactWrite } from '#db/transact';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, outboxEvents } from './deal-fixtures.ts';

let t: TestApi;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Contacts Realty');
  other = await t.newOrg('Other Realty');
});
afterAll(() => t.close());

const create = (body: unknown, o: TestOrg = org) => t.call('POST', '/api/v1/contacts', { key: o.keys.actions, body });
const created = async (body: Record<string, unknown>) => {
  const r = await create(body);
  expect(r.status, r.text).toBe(200);
  return r.body.data;
};
const get = (id: string, qs = '', o: TestOrg = org) => t.call('GET', `/api/v1/contacts/${id}${qs}`, { key: o.keys.read });
const patch = (id: string, body: unknown, o: TestOrg = org) => t.call('PATCH', `/api/v1/contacts/${id}`, { key: o.keys.actions, body });
const list = async (qs: string, o: TestOrg = org) => {
  const r = await t.call('GET', `/api/v1/contacts${qs}`, { key: o.keys.read });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

describe('POST /contacts', () => {
  it('creates a contact (phone in E.164) and emits contact.created', async () => {
    const r = await create({ firstName: 'Beatriz', lastName: 'Quillfeather', email: 'beatriz@hillcountry.example', phone: '(512) 555-0147', company: 'Hill Country Realty' });

    expect(r.status).toBe(200);
    const c = r.body.data;
    expect(c).toEqual({
      id: expect.any(String), type: 'person', firstName: 'Beatriz', lastName: 'Quillfeather', name: 'Beatriz Quillfeather', email: 'beatriz@hillcountry.example',
      phone: '+15125550147', company: 'Hill Country Realty', createdAt: expect.any(String), updatedAt: c.createdAt,
    });
    expect((await get(c.id)).body.data).toMatchObject({ id: c.id, name: 'Beatriz Quillfeather' });
    const events = (await outboxEvents(org.orgId, 'contact.created')).filter((e) => e.data.contactId === c.id);
    expect(events.map((e) => e.data)).toEqual([{ contactId: c.id, name: 'Beatriz Quillfeather', type: 'person', transactionId: null, role: null }]);
  });

  it('answers 422 on `email` naming the contact that already has it (the operation is not (IK): no 409)', async () => {
    const first = await created({ company: 'Lone Prairie Title', email: 'closings@prairie.example' });

    const r = await create({ firstName: 'Other', email: 'Closings@Prairie.example' });

    expect(r.status).toBe(422);
    expect(r.body.error).toEqual({
      code: 'validation_error',
      message: `A contact with email Closings@Prairie.example already exists: ${first.id}.`,
      fields: { email: `another contact of this organization has it (contactId ${first.id})` },
    });
    expect((await create({ firstName: 'Elsewhere', email: 'closings@prairie.example' }, other)).status).toBe(200);
  });

  it('answers 422 with fields for no name at all, a bad phone, a bad email or an unknown type', async () => {
    const none = await create(undefined);
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.error.fields)).toEqual(['firstName', 'lastName', 'company']);
    const phone = await create({ firstName: 'Ana', phone: '555-0147' });
    expect(phone.body.error).toMatchObject({ code: 'validation_error', fields: { phone: expect.stringContaining('not a valid phone number') } });
    expect((await create({ firstName: 'Ana', email: 'nope' })).body.error.fields).toHaveProperty('email');
    expect((await create({ firstName: 'Ana', type: 'robot' })).body.error.fields).toHaveProperty('type');
  });

  it('needs the actions scope', async () => {
    const r = await t.call('POST', '/api/v1/contacts', { key: org.keys.draft, body: { firstName: 'Ana' } });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('insufficient_scope');
  });
});

describe('GET /contacts', () => {
  let listOrg: TestOrg;
  beforeAll(async () => {
    listOrg = await t.newOrg('List Realty');
    for (const body of [
      { firstName: 'zoe', lastName: 'Adams', email: 'zoe@adams.example' },
      { firstName: 'Aaron', lastName: 'Baker', phone: '512-555-0199' },
      { company: 'Lone Prairie Title', email: 'title@prairie.example' },
      { firstName: 'Maria', lastName: 'Lopez', company: 'Prairie Lending' },
      { firstName: 'Ben', lastName: 'Carter' },
    ]) expect((await create(body, listOrg)).status).toBe(200);
  });

  it('sorts by name case-insensitively and pages with hasMore', async () => {
    const p1 = await list('?pageSize=2', listOrg);
    const p2 = await list('?pageSize=2&page=2', listOrg);
    const p3 = await list('?pageSize=2&page=3', listOrg);
    expect([...p1.data, ...p2.data, ...p3.data].map((c: any) => c.name)).toEqual(['Aaron Baker', 'Ben Carter', 'Lone Prairie Title', 'Maria Lopez', 'zoe Adams']);
    expect([p1, p2, p3].map((p) => [p.page, p.pageSize, p.hasMore])).toEqual([[1, 2, true], [2, 2, true], [3, 2, false]]);
  });

  it('searches names, email, company and phone digits, and filters by type', async () => {
    const names = async (qs: string) => (await list(qs, listOrg)).data.map((c: any) => c.name);
    expect(await names('?q=prairie')).toEqual(['Lone Prairie Title', 'Maria Lopez']);
    expect(await names('?q=ZOE%40ADAMS')).toEqual(['zoe Adams']);
    expect(await names(`?q=${encodeURIComponent('(512) 555-0199')}`)).toEqual(['Aaron Baker']);
    expect(await names('?q=555-0199')).toEqual(['Aaron Baker']);
    expect(await names('?type=company')).toEqual(['Lone Prairie Title']);
    expect(await names('?q=prairie&type=person')).toEqual(['Maria Lopez']);
    expect(await names('?q=nobody')).toEqual([]);
  });

  it('shows only the caller organization\'s contacts', async () => {
    expect((await list('?q=prairie', other)).data.map((c: any) => c.name)).not.toContain('Lone Prairie Title');
  });

  it('answers 422 for an unknown type or a page size over 100', async () => {
    const r = await t.call('GET', '/api/v1/contacts?type=robot&pageSize=1000', { key: org.keys.read });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.error.fields).sort()).toEqual(['pageSize', 'type']);
  });
});

/** A message of a deal with the contact, written through the repository (sending is another operation's job). */
async function message(transactionId: string, contactId: string, at: string, text: string, channel: 'email' | 'sms' = 'email') {
  const m: Communication = {
    id: randomUUID(), transactionId, channel, direction: 'outbound', kind: channel, status: 'sent', statusDetail: null, threadId: null,
    from: { address: 'tc@example.test', name: null, contactId: null }, to: [{ address: 'x@example.test', name: null, contactId }], cc: [], bcc: [],
    subject: channel === 'email' ? `Re: ${text}` : null, bodyText: text, bodyHtml: null, emailMessageId: null, inReplyTo: null, documents: [], recipientRole: null, context: null,
    provider: 'local', providerMessageId: null, scheduledMessageId: null, contactId, sentBy: null, createdAt: at, updatedAt: at,
  };
  await transactWrite(communicationPuts(org.orgId, m));
  return m;
}

describe('GET /contacts/{contactId}', () => {
  it('shows the deals it is linked to with roles, and its newest messages across deals', async () => {
    const c = await created({ firstName: 'Dual', lastName: 'Agent', email: 'dual@agent.example' });
    const d1 = await createDeal(org, '1 First St', { status: 'Under Contract' });
    const d2 = await createDeal(org, '2 Second St');
    for (const [deal, role] of [[d1, "Buyer's Agent"], [d2, 'Listing Agent'], [d2, "Buyer's Agent"]] as const) {
      const r = await t.call('POST', `/api/v1/transactions/${deal.id}/contacts`, { key: org.keys.actions, body: { contactId: c.id, role } });
      expect(r.status, r.text).toBe(200);
    }
    await message(d1.id, c.id, '2026-03-01T10:00:00.000Z', 'oldest');
    await message(d2.id, c.id, '2026-03-02T10:00:00.000Z', 'middle', 'sms');
    await message(d1.id, c.id, '2026-03-03T10:00:00.000Z', 'newest   with\n spaces');

    const r = await get(c.id, '?activityLimit=2');

    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({ id: c.id, name: 'Dual Agent', email: 'dual@agent.example', hasMoreTransactions: false });
    expect(d.transactions.map((x: any) => [x.transactionId, x.address, x.status, x.roles.map((y: any) => y.role).sort()])).toEqual([
      [d2.id, '2 Second St, Austin, TX 78704', 'Prospect', ["Buyer's Agent", 'Listing Agent']],
      [d1.id, '1 First St, Austin, TX 78704', 'Under Contract', ["Buyer's Agent"]],
    ]);
    expect(d.recentActivity).toEqual([
      expect.objectContaining({ transactionId: d1.id, channel: 'email', direction: 'outbound', subject: 'Re: newest   with\n spaces', preview: 'newest with spaces', createdAt: '2026-03-03T10:00:00.000Z' }),
      expect.objectContaining({ transactionId: d2.id, channel: 'sms', subject: null, preview: 'middle' }),
    ]);
    expect((await get(c.id)).body.data.recentActivity).toHaveLength(3);
    expect((await get(c.id, '?activityLimit=0')).body.data.recentActivity).toEqual([]);
  });

  it('answers 404 for an unknown id or another organization\'s, alike, and 422 for a bad id or limit', async () => {
    const c = await created({ firstName: 'Private', lastName: 'Person' });
    const foreign = await get(c.id, '', other);
    const unknown = await get(randomUUID(), '', other);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 'not_found', message: 'Contact not found.' } });
    expect(unknown.body).toEqual(foreign.body);
    expect((await get('nope')).body.error.fields).toEqual({ contactId: 'must be a uuid' });
    expect((await get(c.id, '?activityLimit=101')).status).toBe(422);
  });
});

describe('PATCH /contacts/{contactId}', () => {
  it('keeps omitted fields, clears null ones, normalises the phone', async () => {
    const c = await created({ firstName: 'Ana', lastName: 'Ruiz', email: 'ana@ruiz.example', company: 'Ruiz Homes' });

    const r = await patch(c.id, { company: null, phone: '+1 512 555 0199' });

    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ ...c, company: null, phone: '+15125550199', updatedAt: expect.any(String) });
    expect(r.body.data.updatedAt > c.updatedAt).toBe(true);
    expect((await get(c.id)).body.data).toMatchObject({ company: null, phone: '+15125550199', email: 'ana@ruiz.example' });
  });

  it("updates the deal's copy of the contact (GET /transactions/{id} shows the new name and channels)", async () => {
    const c = await created({ firstName: 'Sam', lastName: 'Seller', email: 'sam@old.example' });
    const deal = await createDeal(org, '3 Snapshot St');
    expect((await t.call('POST', `/api/v1/transactions/${deal.id}/contacts`, { key: org.keys.actions, body: { contactId: c.id, role: 'Seller' } })).status).toBe(200);

    expect((await patch(c.id, { lastName: 'Sellers', email: 'sam@new.example', phone: '512-555-0142' })).status).toBe(200);

    const d = (await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read })).body.data;
    expect(d.contacts).toEqual([expect.objectContaining({ contactId: c.id, role: 'Seller', name: 'Sam Sellers', email: 'sam@new.example', phone: '+15125550142' })]);
  });

  it('answers 422 naming `email` when another contact has it, for a bad phone or for clearing every name', async () => {
    const a = await created({ firstName: 'Holder', email: 'taken@example.test' });
    const b = await created({ firstName: 'Wanter' });
    const taken = await patch(b.id, { email: 'taken@example.test' });
    expect(taken.status).toBe(422);
    expect(taken.body.error.fields).toEqual({ email: `another contact of this organization has it (contactId ${a.id})` });
    expect(taken.body.error.message).toContain(a.id);
    expect((await patch(b.id, { phone: '12' })).body.error.fields).toHaveProperty('phone');
    expect((await patch(b.id, { firstName: null })).status).toBe(422);
    expect((await get(b.id)).body.data).toMatchObject({ name: 'Wanter', email: null, phone: null });
  });

  it('answers 404 for another organization\'s contact and leaves it unchanged', async () => {
    const c = await created({ firstName: 'Mine' });
    const r = await patch(c.id, { firstName: 'Theirs' }, other);
    expect(r.status).toBe(404);
    expect((await get(c.id)).body.data.name).toBe('Mine');
  });
});
