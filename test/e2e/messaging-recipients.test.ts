/** `GET /transactions/{transactionId}/recipients`: participants with roles and per-channel availability, over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { optOutSms, suppressEmail } from '#db/consent';
import type { Transaction } from '#db/transactions';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal } from './deal-fixtures.ts';

let t: TestApi;
let org: TestOrg;
let deal: Transaction;
const ids: Record<string, string> = {};

const contact = async (body: Record<string, unknown>) => {
  const r = await t.call('POST', '/api/v1/contacts', { key: org.keys.actions, body });
  expect(r.status, r.text).toBe(200);
  return r.body.data.id as string;
};
const link = async (contactId: string, role: string) => expect((await t.call('POST', `/api/v1/transactions/${deal.id}/contacts`, { key: org.keys.actions, body: { contactId, role } })).status).toBe(200);
const recipients = (qs = '', key = org.keys.read, id = deal.id) => t.call('GET', `/api/v1/transactions/${id}/recipients${qs}`, { key });
/** name → [email reason or address, sms reason or address] */
const summary = (list: any[]) => list.map((r) => [r.name, r.email.available ? r.email.address : r.email.reason, r.sms.available ? r.sms.address : r.sms.reason]);

beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Recipients Realty');
  deal = await createDeal(org, '20 Reach Rd');
  ids.ana = await contact({ firstName: 'Ana', lastName: 'Buyer', email: 'ana@reach.example', phone: '(512) 555-0147' });
  ids.bob = await contact({ firstName: 'Bob', lastName: 'Seller', email: 'bob@bounce.example', phone: '512-555-0111' });
  ids.title = await contact({ company: 'Prairie Title', email: 'closings@prairie.example', phone: '(800) 555-0199' });
  ids.dana = await contact({ firstName: 'Dana', lastName: 'Dual' });
  await link(ids.title, 'Escrow Officer / Title');
  await link(ids.dana, 'Listing Agent');
  await link(ids.bob, 'Seller');
  await link(ids.ana, 'Buyer');
  await link(ids.dana, "Buyer's Agent");
  await suppressEmail('Bob@Bounce.example', 'bounce', '550 5.1.1 user unknown', null, new Date());
  await optOutSms('+15125550111', 'STOP', null, new Date());
});
afterAll(() => t.close());

describe('GET /transactions/{transactionId}/recipients', () => {
  it('lists each participant once, by role, with its roles and why a channel is unavailable', async () => {
    const r = await recipients();

    expect(r.status).toBe(200);
    expect(r.body.channel).toBeNull();
    expect(r.body.unreachable).toEqual([]);
    expect(r.body.data.map((p: any) => [p.name, p.roles])).toEqual([
      ['Ana Buyer', [{ role: 'Buyer', isPrimary: true }]],
      ['Bob Seller', [{ role: 'Seller', isPrimary: true }]],
      ['Dana Dual', [{ role: "Buyer's Agent", isPrimary: true }, { role: 'Listing Agent', isPrimary: true }]],
      ['Prairie Title', [{ role: 'Escrow Officer / Title', isPrimary: true }]],
    ]);
    expect(summary(r.body.data)).toEqual([
      ['Ana Buyer', 'ana@reach.example', '+15125550147'],
      ['Bob Seller', 'suppressed', 'opted_out'],
      ['Dana Dual', 'no_address', 'no_address'],
      ['Prairie Title', 'closings@prairie.example', 'not_textable'],
    ]);
    expect(r.body.data[1]).toMatchObject({
      contactId: ids.bob,
      type: 'person',
      email: { address: 'bob@bounce.example', available: false, reason: 'suppressed' },
      sms: { address: '+15125550111', available: false, reason: 'opted_out' },
    });
  });

  it('with channel=email keeps those reachable by email and reports the others apart', async () => {
    const r = await recipients('?channel=email');
    expect(r.body.channel).toBe('email');
    expect(summary(r.body.data).map((x) => x[0])).toEqual(['Ana Buyer', 'Prairie Title']);
    expect(r.body.unreachable.map((p: any) => [p.name, p.email.reason])).toEqual([['Bob Seller', 'suppressed'], ['Dana Dual', 'no_address']]);
  });

  it('with channel=sms keeps the textable, not opted-out numbers; a STOP takes effect at once', async () => {
    const before = await recipients('?channel=sms');
    expect(before.body.data.map((p: any) => p.name)).toEqual(['Ana Buyer']);
    expect(before.body.unreachable.map((p: any) => [p.name, p.sms.reason])).toEqual([['Bob Seller', 'opted_out'], ['Dana Dual', 'no_address'], ['Prairie Title', 'not_textable']]);

    await optOutSms('+15125550147', 'STOP', org.orgId, new Date());

    const after = await recipients('?channel=sms');
    expect(after.body.data).toEqual([]);
    expect(after.body.unreachable[0]).toMatchObject({ name: 'Ana Buyer', sms: { address: '+15125550147', available: false, reason: 'opted_out' } });
  });

  it("follows a contact's update (new number, email cleared)", async () => {
    const own = await t.newOrg('Update Realty');
    const d = await createDeal(own, '21 Change Ct');
    const c = (await t.call('POST', '/api/v1/contacts', { key: own.keys.actions, body: { firstName: 'Cleo', email: 'cleo@example.test' } })).body.data;
    await t.call('POST', `/api/v1/transactions/${d.id}/contacts`, { key: own.keys.actions, body: { contactId: c.id, role: 'Buyer' } });
    expect((await t.call('PATCH', `/api/v1/contacts/${c.id}`, { key: own.keys.actions, body: { email: null, phone: '512-555-0177' } })).status).toBe(200);

    const r = await recipients('', own.keys.read, d.id);

    expect(summary(r.body.data)).toEqual([['Cleo', 'no_address', '+15125550177']]);
  });

  it('answers an empty list for a deal without contacts, 422 for an unknown channel, 404 for another organization', async () => {
    const empty = await createDeal(org, '22 Nobody Ln');
    expect((await recipients('', org.keys.read, empty.id)).body).toEqual({ channel: null, data: [], unreachable: [] });
    const bad = await recipients('?channel=fax');
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toHaveProperty('channel');
    const stranger = await t.newOrg('Stranger Realty');
    const foreign = await recipients('', stranger.keys.read);
    const unknown = await recipients('', stranger.keys.read, randomUUID());
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect(foreign.text).not.toContain('Ana');
  });
});
