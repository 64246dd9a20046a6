/** Contact roles (built-in + custom) and linking contacts to deals with a role, over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal } from './deal-fixtures.ts';

const BUILT_IN = ['Buyer', 'Seller', "Buyer's Agent", 'Listing Agent', 'Escrow Officer / Title'];

let t: TestApi;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Roles Realty');
  other = await t.newOrg('Other Realty');
});
afterAll(() => t.close());

const roles = async (o: TestOrg = org) => {
  const r = await t.call('GET', '/api/v1/contact-roles', { key: o.keys.read });
  expect(r.status).toBe(200);
  return r.body.data;
};
const addRole = (body: unknown, o: TestOrg = org) => t.call('POST', '/api/v1/contact-roles', { key: o.keys.actions, body });
const contact = async (o: TestOrg, body: Record<string, unknown>) => {
  const r = await t.call('POST', '/api/v1/contacts', { key: o.keys.actions, body });
  expect(r.status, r.text).toBe(200);
  return r.body.data;
};
const link = (transactionId: string, body: unknown, o: TestOrg = org) => t.call('POST', `/api/v1/transactions/${transactionId}/contacts`, { key: o.keys.actions, body });
const parties = async (transactionId: string) =>
  (await t.call('GET', `/api/v1/transactions/${transactionId}`, { key: org.keys.read })).body.data.contacts.map((c: any) => [c.role, c.name, c.isPrimary]);

describe('contact roles', () => {
  it('lists the built-in roles, then custom roles by name; a custom role appears once created', async () => {
    expect(await roles()).toEqual(BUILT_IN.map((name) => ({ name, builtIn: true, description: null, createdAt: null })));

    const r = await addRole({ name: '  Lender ', description: "Buyer's loan officer" });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ name: 'Lender', builtIn: false, description: "Buyer's loan officer", createdAt: expect.any(String) });
    expect((await addRole({ name: 'Home Inspector' })).status).toBe(200);

    expect((await roles()).map((x: any) => [x.name, x.builtIn])).toEqual([...BUILT_IN.map((n) => [n, true]), ['Home Inspector', false], ['Lender', false]]);
    // Another organization does not see them.
    expect((await roles(other)).map((x: any) => x.name)).toEqual(BUILT_IN);
  });

  it('answers 422 naming `name` for a name that exists in any case, built-in names included (not (IK): no 409)', async () => {
    await addRole({ name: 'Appraiser' });
    const dup = await addRole({ name: 'APPRAISER' });
    expect(dup.status).toBe(422);
    expect(dup.body.error).toEqual({ code: 'validation_error', message: "The role 'Appraiser' already exists.", fields: { name: "the custom role 'Appraiser' already exists" } });
    const builtIn = await addRole({ name: 'listing agent' });
    expect(builtIn.status).toBe(422);
    expect(builtIn.body.error.message).toBe("'Listing Agent' is a built-in role.");
    expect(builtIn.body.error.fields).toEqual({ name: "is the built-in role 'Listing Agent'" });
    expect((await roles()).filter((x: any) => x.name.toLowerCase() === 'appraiser')).toHaveLength(1);
  });

  it('answers 422 for a blank name and 403 without the actions scope', async () => {
    expect((await addRole({ name: '   ' })).body.error.fields).toHaveProperty('name');
    expect((await t.call('POST', '/api/v1/contact-roles', { key: org.keys.draft, body: { name: 'Stager' } })).status).toBe(403);
  });
});

describe('POST /transactions/{transactionId}/contacts', () => {
  it('links with a role; the first of a role becomes its primary; the deal shows it', async () => {
    const deal = await createDeal(org, '10 Link Ln');
    const ana = await contact(org, { firstName: 'Ana', lastName: 'Ruiz', email: 'ana@link.example' });

    const r = await link(deal.id, { contactId: ana.id, role: 'Buyer' });

    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: { transactionId: deal.id, contactId: ana.id, role: 'Buyer', isPrimary: true, type: 'person', name: 'Ana Ruiz', email: 'ana@link.example', phone: null, company: null, linkedAt: expect.any(String) },
      changed: true,
    });
    const d = (await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read })).body.data;
    expect(d.contacts).toEqual([r.body.data]);
    expect(d.recentActivity.map((a: any) => [a.type, a.summary])).toEqual([['contact_linked', 'Ana Ruiz linked as primary Buyer']]);
  });

  it('is idempotent for the same contact and role; another role is a second link', async () => {
    const deal = await createDeal(org, '11 Again Ave');
    const c = await contact(org, { firstName: 'Dana', lastName: 'Dual' });
    const first = await link(deal.id, { contactId: c.id, role: "Buyer's Agent" });

    const again = await link(deal.id, { contactId: c.id, role: "Buyer's Agent", isPrimary: null });

    expect(again.status).toBe(200);
    expect(again.body).toEqual({ data: first.body.data, changed: false });
    expect((await link(deal.id, { contactId: c.id, role: 'Listing Agent' })).body.changed).toBe(true);
    expect(await parties(deal.id)).toEqual([
      ["Buyer's Agent", 'Dana Dual', true],
      ['Listing Agent', 'Dana Dual', true],
    ]);
  });

  it('isPrimary makes the contact the primary of its role, unsetting the previous one (other roles untouched)', async () => {
    const deal = await createDeal(org, '12 Primary Pl');
    const [a, b, s] = [await contact(org, { firstName: 'Buyer', lastName: 'One' }), await contact(org, { firstName: 'Buyer', lastName: 'Two' }), await contact(org, { firstName: 'Seller', lastName: 'One' })];
    await link(deal.id, { contactId: a.id, role: 'Buyer' });
    await link(deal.id, { contactId: s.id, role: 'Seller' });
    const second = await link(deal.id, { contactId: b.id, role: 'Buyer' });
    expect(second.body.data.isPrimary).toBe(false);
    expect(await parties(deal.id)).toEqual([['Buyer', 'Buyer One', true], ['Buyer', 'Buyer Two', false], ['Seller', 'Seller One', true]]);

    const promote = await link(deal.id, { contactId: b.id, role: 'Buyer', isPrimary: true });

    expect(promote.body).toMatchObject({ data: { contactId: b.id, isPrimary: true }, changed: true });
    expect(await parties(deal.id)).toEqual([['Buyer', 'Buyer Two', true], ['Buyer', 'Buyer One', false], ['Seller', 'Seller One', true]]);
  });

  it('accepts a custom role spelled exactly; any other token is a 422 listing the known roles', async () => {
    const o = await t.newOrg('Custom Roles Realty');
    await addRole({ name: 'Lender' }, o);
    await addRole({ name: 'Surveyor' }, o);
    const deal = await createDeal(o, '13 Custom Ct');
    const c = await contact(o, { firstName: 'Loan', lastName: 'Officer' });

    expect((await link(deal.id, { contactId: c.id, role: 'Lender' }, o)).body.data.role).toBe('Lender');
    const lower = await link(deal.id, { contactId: c.id, role: 'lender' }, o);
    expect(lower.status).toBe(422);
    expect(lower.body.error.fields).toEqual({ role: `is not a known role (roles match exactly: did you mean 'Lender'?); known roles: ${[...BUILT_IN, 'Lender', 'Surveyor'].join(', ')}` });
    const unknown = await link(deal.id, { contactId: c.id, role: 'Plumber' }, o);
    expect(unknown.body.error.fields.role).toMatch(/^is not a known role; known roles: Buyer, .*, Lender, Surveyor$/);
    // Another organization's custom role is not this one's.
    const elsewhere = await link((await createDeal(org, '14 Foreign Role Rd')).id, { contactId: (await contact(org, { firstName: 'X' })).id, role: 'Surveyor' });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.fields.role).not.toContain('Surveyor');
  });

  it('answers 422 naming each missing field (contactId and role are required though the spec types them nullable)', async () => {
    const deal = await createDeal(org, '15 Missing Way');
    const r = await link(deal.id, { contactId: null, isPrimary: true });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'validation_error', fields: { contactId: 'is required', role: 'is required' } });
    expect((await link(deal.id, { contactId: 'not-a-uuid', role: 'Buyer' })).body.error.fields).toEqual({ contactId: 'must be a uuid' });
    expect(await parties(deal.id)).toEqual([]);
  });

  it("answers 404 for another organization's contact or deal, like an unknown id, and links nothing", async () => {
    const deal = await createDeal(org, '16 Isolated St');
    const mine = await contact(org, { firstName: 'Mine' });
    const theirs = await contact(other, { firstName: 'Theirs' });
    const theirDeal = await createDeal(other, '17 Their St');

    const foreignContact = await link(deal.id, { contactId: theirs.id, role: 'Buyer' });
    const unknownContact = await link(deal.id, { contactId: randomUUID(), role: 'Buyer' });
    const foreignDeal = await link(theirDeal.id, { contactId: mine.id, role: 'Buyer' });

    expect([foreignContact.status, unknownContact.status, foreignDeal.status]).toEqual([404, 404, 404]);
    expect(foreignContact.body).toEqual({ error: { code: 'not_found', message: 'Contact not found.' } });
    expect(unknownContact.body).toEqual(foreignContact.body);
    expect(foreignDeal.body.error.message).toBe('Transaction not found.');
    expect(await parties(deal.id)).toEqual([]);
  });
});
