/**
 * `applyContactPatch` (required fields, display name, type default, E.164 phones, null clears / absent keeps) and the
 * contact search text and term.
 */
import { describe, expect, it } from 'vitest';
import { applyContactPatch, contactSearchTerm, contactSearchText, sameContactFields, type ContactFields } from '#domain/contact-fields';
import { normalizePhone } from '#domain/phone';
import { InvalidInput } from '#domain/errors';

const fieldsOf = async (fn: () => Promise<unknown>): Promise<Record<string, string>> => {
  try {
    await fn();
  } catch (err) {
    if (err instanceof InvalidInput) return err.fields;
    throw err;
  }
  throw new Error('expected InvalidInput');
};

const ana: ContactFields = { type: 'person', firstName: 'Ana', lastName: 'Ruiz', name: 'Ana Ruiz', email: 'ana@example.test', phone: '+15125550147', company: 'Ruiz Homes' };

describe('applyContactPatch on a new contact', () => {
  it('names a person by first and last name, trims, stores the phone in E.164', async () => {
    expect(await applyContactPatch({ firstName: '  Ana ', lastName: 'Ruiz', phone: '(512) 555-0147', email: 'ana@example.test' })).toEqual({
      type: 'person', firstName: 'Ana', lastName: 'Ruiz', name: 'Ana Ruiz', email: 'ana@example.test', phone: '+15125550147', company: null,
    });
  });

  it('makes a contact named only by a company a company, and a person with a company a person', async () => {
    expect(await applyContactPatch({ company: 'Lone Prairie Title' })).toMatchObject({ type: 'company', name: 'Lone Prairie Title' });
    expect(await applyContactPatch({ lastName: 'Ruiz', company: 'Ruiz Homes' })).toMatchObject({ type: 'person', name: 'Ruiz' });
    expect(await applyContactPatch({ firstName: 'Ana', company: 'Ruiz Homes', type: 'company' })).toMatchObject({ type: 'company', name: 'Ruiz Homes' });
  });

  it('falls back to the email, then the phone, for the display name', async () => {
    expect((await applyContactPatch({ email: 'x@example.test', phone: '5125550147' })).name).toBe('x@example.test');
    expect((await applyContactPatch({ phone: '512 555 0147' })).name).toBe('+15125550147');
  });

  it('keeps landlines (E.164) and refuses what is not a phone number', async () => {
    expect((await applyContactPatch({ company: 'Title Co', phone: '+44 20 7946 0958' })).phone).toBe('+442079460958');
    expect(await fieldsOf(() => applyContactPatch({ firstName: 'Ana', phone: '555-0147' }))).toEqual({ phone: expect.stringContaining('not a valid phone number') });
    expect(normalizePhone('123')).toBeUndefined();
  });

  it('refuses an invalid email and a contact with nothing to be known by (blank strings count as nothing)', async () => {
    expect(await fieldsOf(() => applyContactPatch({ firstName: 'Ana', email: 'not-an-address' }))).toEqual({ email: 'must be an email address' });
    expect(Object.keys(await fieldsOf(() => applyContactPatch({})))).toEqual(['firstName', 'lastName', 'company']);
    expect(Object.keys(await fieldsOf(() => applyContactPatch({ firstName: '  ', company: '' })))).toEqual(['firstName', 'lastName', 'company']);
  });
});

describe('applyContactPatch on an existing contact', () => {
  it('keeps absent fields and clears null ones', async () => {
    const next = await applyContactPatch({ company: null, phone: '+1 512 555 0199' }, ana);
    expect(next).toEqual({ ...ana, company: null, phone: '+15125550199' });
  });

  it('renames when a name part changes, and keeps the type unless given', async () => {
    expect(await applyContactPatch({ lastName: 'Ruiz-Vega' }, ana)).toMatchObject({ name: 'Ana Ruiz-Vega', type: 'person' });
    expect(await applyContactPatch({ type: 'company' }, ana)).toMatchObject({ name: 'Ruiz Homes', type: 'company' });
    expect(await applyContactPatch({ type: null }, { ...ana, type: 'company' })).toMatchObject({ name: 'Ana Ruiz', type: 'person' });
  });

  it('refuses clearing the last thing that names the contact', async () => {
    const onlyEmail = await applyContactPatch({ email: 'a@example.test' });
    expect(await fieldsOf(() => applyContactPatch({ email: null }, onlyEmail))).toHaveProperty('company');
  });

  it('reports an unchanged patch as the same fields', async () => {
    expect(sameContactFields(await applyContactPatch({ firstName: 'Ana', phone: '512-555-0147' }, ana), ana)).toBe(true);
    expect(sameContactFields(await applyContactPatch({ firstName: 'Anna' }, ana), ana)).toBe(false);
  });
});

describe('contact search', () => {
  const text = contactSearchText(ana);

  it('matches names, email and company case-insensitively', () => {
    for (const q of ['ana ruiz', 'RUIZ HOMES', 'ana@example']) expect(text).toContain(contactSearchTerm(q));
  });

  it('matches a phone however it is written, by its digits', () => {
    for (const q of ['555-0147', '(512) 555-0147', '+1 512 555 0147', '5125550147']) expect(text).toContain(contactSearchTerm(q));
    expect(text).not.toContain(contactSearchTerm('555-0199'));
  });

  it('ignores a blank query and keeps short digit strings as text', () => {
    expect(contactSearchTerm('   ')).toBeUndefined();
    expect(contactSearchTerm(undefined)).toBeUndefined();
    expect(contactSearchTerm(' 12 ')).toBe('12');
    expect(contactSearchTerm('Suite 12')).toBe('suite 12');
  });
});
