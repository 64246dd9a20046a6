/**
 * Email-template rendering and merge fields (shared/domain/template-render.ts, merge-fields.ts, reminders.ts):
 * every field a template names is found in its parse tree; unknown and valueless fields are reported and kept as
 * written, never rendered blank; only plain fields and #if/#unless blocks are allowed; reminder times follow the
 * organization's time zone across daylight-saving changes.
 */
import { describe, expect, it } from 'vitest';
import { analyzeTemplate, TemplateSyntaxError } from '#domain/template-fields';
import { renderTemplate } from '#domain/template-render';
import { isMergeFieldName, keyDateWords, longDate, mergeFieldsOf, roleFieldKey, type MergeSource } from '#domain/merge-fields';
import { parseTimeOfDay, reminderTime } from '#domain/reminders';
import { slugify } from '#domain/system-email-templates';
import { systemEmailTemplates } from '#use-cases/email-templates';

const source: MergeSource = {
  organizationName: 'Live Oak Realty',
  deal: {
    propertyAddress: { street: '1207 Live Oak Ln', city: 'Austin', state: 'TX', zip: '78704' },
    address: '1207 Live Oak Ln, Austin, TX 78704',
    transactionType: 'Purchase',
    side: 'Buyer',
    status: 'Under Contract',
    keyDates: [
      { keyDateType: 'ClosingDate', dateValue: '2030-06-01' },
      { keyDateType: 'HOA_Docs_Due', dateValue: '2030-05-10' },
    ],
    contacts: [
      { role: 'Buyer', isPrimary: false, name: 'Sam Ortiz', email: 'sam@example.com', phone: null, company: null },
      { role: 'Buyer', isPrimary: true, name: 'Maria Delgado', email: 'maria@example.com', phone: '+15125550143', company: null },
      { role: "Buyer's Agent", isPrimary: true, name: 'Jo Park', email: 'jo@example.com', phone: null, company: 'Park Homes' },
      { role: 'Lender', isPrimary: true, name: 'First Bank', email: null, phone: null, company: 'First Bank' },
    ],
  },
};
const values = new Map(mergeFieldsOf(source).map((f) => [f.name, f.value]));

describe('merge fields of a deal', () => {
  it('property, client (the side’s primary party), parties by role, key dates written out; null where the deal has none', () => {
    expect(values.get('property.address')).toBe('1207 Live Oak Ln, Austin, TX 78704');
    expect(values.get('client.firstName')).toBe('Maria');
    expect(values.get('client.lastName')).toBe('Delgado');
    expect(values.get('parties.buyer.name')).toBe('Maria Delgado');
    expect(values.get('parties.buyersAgent.company')).toBe('Park Homes');
    expect(values.get('parties.lender.name')).toBe('First Bank');
    expect(values.get('parties.seller.name')).toBeNull();
    expect(values.get('keyDates.ClosingDate')).toBe('June 1, 2030');
    expect(values.get('keyDates.HOA_Docs_Due')).toBe('May 10, 2030');
    expect(values.get('keyDates.InspectionDeadline')).toBeNull();
    expect(values.get('organization.name')).toBe('Live Oak Realty');
    expect(values.get('reminder.deadlineDate')).toBeNull();
  });

  it('names: role keys in camelCase, key-date words, the field grammar', () => {
    expect(roleFieldKey("Buyer's Agent")).toBe('buyersAgent');
    expect(roleFieldKey('Escrow Officer / Title')).toBe('escrowOfficerTitle');
    expect(keyDateWords('ClosingDate')).toBe('Closing date');
    expect(keyDateWords('HOA_Docs_Due')).toBe('HOA docs due');
    expect(longDate('2031-12-09')).toBe('December 9, 2031');
    for (const ok of ['property.zip', 'client.email', 'parties.lender.phone', 'keyDates.Anything_1', 'reminder.note']) expect(isMergeFieldName(ok), ok).toBe(true);
    for (const bad of ['buyer.name', 'client', 'parties.lender', 'parties.Lender.name', 'keyDates', 'property.constructor', 'constructor', '__proto__', 'client.password']) expect(isMergeFieldName(bad), bad).toBe(false);
  });
});

describe('rendering', () => {
  it('fills fields, keeps and reports unknown and valueless ones as written', async () => {
    const r = await renderTemplate('Hi {{client.firstName}}, closing {{keyDates.ClosingDate}}; seller {{parties.seller.name}}; {{buyer.name}} & {{{property.city}}}', values);
    expect(r.text).toBe('Hi Maria, closing June 1, 2030; seller {{parties.seller.name}}; {{buyer.name}} & Austin');
    expect(r.fields).toEqual(['client.firstName', 'keyDates.ClosingDate', 'property.city']);
    expect(r.missingFields).toEqual(['parties.seller.name']);
    expect(r.unknownFields).toEqual(['buyer.name']);
  });

  it('#if/#unless test a field; a condition on a field without value is false, not reported missing', async () => {
    const t = '{{#if parties.seller.name}}S{{else}}no seller{{/if}} {{#unless keyDates.InspectionDeadline}}no option{{/unless}} {{#if parties.lender.name}}L={{parties.lender.name}}{{/if}}';
    const r = await renderTemplate(t, values);
    expect(r.text).toBe('no seller no option L=First Bank');
    expect(r.missingFields).toEqual([]);
    expect((await analyzeTemplate(t)).conditions).toEqual(['parties.seller.name', 'keyDates.InspectionDeadline']);
  });

  it('a field inside a branch not taken is neither used nor missing', async () => {
    const r = await renderTemplate('{{#if reminder.note}}Note: {{reminder.note}}{{else}}{{#if parties.seller.name}}{{parties.seller.name}}{{else}}{{parties.seller.email}}{{/if}}{{/if}}', values);
    expect(r.text).toBe('{{parties.seller.email}}');
    expect(r.missingFields).toEqual(['parties.seller.email']);
    expect(r.fields).toEqual([]);
  });

  it('plain text: nothing is HTML-escaped; comments vanish; values are not re-parsed as templates', async () => {
    const v = new Map([...values, ['reminder.note', '<b>{{client.email}}</b> & co']]);
    expect((await renderTemplate('{{! internal }}{{reminder.note}}', v)).text).toBe('<b>{{client.email}}</b> & co');
  });

  it('refuses helpers, partials, each/with, @data and ../ and reports syntax errors', async () => {
    for (const t of ['{{lookup a b}}', '{{> header}}', '{{#each parties}}x{{/each}}', '{{#with client}}{{name}}{{/with}}', '{{@root.client.name}}', '{{#if a b}}x{{/if}}', '{{this.client}}'])
      expect((await analyzeTemplate(t)).unsupported.length, t).toBeGreaterThan(0);
    await expect(renderTemplate('{{#each x}}{{/each}}', values)).rejects.toThrow(TemplateSyntaxError);
    await expect(analyzeTemplate('Hi {{client.firstName')).rejects.toThrow(TemplateSyntaxError);
    await expect(analyzeTemplate('{{#if a}}x')).rejects.toThrow(TemplateSyntaxError);
  });

  it('prototype names are never read', async () => {
    const r = await renderTemplate('{{constructor}} {{client.constructor}} {{__proto__.x}}', values);
    expect(r.text).toBe('{{constructor}} {{client.constructor}} {{__proto__.x}}');
    expect(r.unknownFields).toEqual(['constructor', 'client.constructor', '__proto__.x']);
  });

  it('system templates: the common TC messages, every field they use is a merge field', async () => {
    const all = systemEmailTemplates();
    expect(all.map((t) => t.slug)).toEqual(['under-contract', 'option-period-ending', 'clear-to-close', 'closing-reminder', 'document-request', 'key-date-reminder']);
    for (const t of all) {
      for (const text of [t.subject, t.body]) {
        const a = await analyzeTemplate(text);
        expect(a.unknownFields, t.slug).toEqual([]);
        expect(a.unsupported, t.slug).toEqual([]);
      }
    }
    const closing = all.find((t) => t.slug === 'closing-reminder')!;
    expect((await renderTemplate(closing.subject, values)).text).toBe('Closing on June 1, 2030: 1207 Live Oak Ln, Austin, TX 78704');
  });

  it('slugs', () => {
    expect(slugify("Buyer's Appraisal — Ordered!")).toBe('buyers-appraisal-ordered');
    expect(slugify('Café')).toBe('cafe');
    expect(slugify('!!!')).toBe('template');
  });
});

describe('reminder time', () => {
  it('N days before, at the time of day in the zone; DST changes the UTC instant, not the wall clock', () => {
    expect(reminderTime('2030-06-04', 3, '09:00', 'America/Chicago')).toEqual({ local: '2030-06-01T09:00:00', sendAt: '2030-06-01T14:00:00.000Z' });
    expect(reminderTime('2030-01-04', 3, '09:00', 'America/Chicago').sendAt).toBe('2030-01-01T15:00:00.000Z');
    expect(reminderTime('2030-03-01', 0, '17:30', 'UTC').sendAt).toBe('2030-03-01T17:30:00.000Z');
    expect(reminderTime('2030-06-10', 3, '09:00', 'Asia/Tokyo').sendAt).toBe('2030-06-07T00:00:00.000Z');
    expect(reminderTime('2030-01-10', 0, '09:00', 'Asia/Kolkata').sendAt).toBe('2030-01-10T03:30:00.000Z');
  });

  it('on the daylight-saving change days: a skipped time moves past the gap, a repeated one is its first occurrence', () => {
    // 2027-03-14 02:30 does not exist in Chicago (02:00 CST → 03:00 CDT): 03:30 CDT.
    expect(reminderTime('2027-03-14', 0, '02:30', 'America/Chicago').sendAt).toBe('2027-03-14T08:30:00.000Z');
    expect(reminderTime('2027-03-14', 0, '03:00', 'America/Chicago').sendAt).toBe('2027-03-14T08:00:00.000Z');
    expect(reminderTime('2027-03-14', 0, '01:59', 'America/Chicago').sendAt).toBe('2027-03-14T07:59:00.000Z');
    // 2027-11-07 01:30 happens twice (CDT, then CST): the first, 06:30Z.
    expect(reminderTime('2027-11-07', 0, '01:30', 'America/Chicago').sendAt).toBe('2027-11-07T06:30:00.000Z');
    expect(reminderTime('2027-11-07', 0, '09:00', 'America/Chicago').sendAt).toBe('2027-11-07T15:00:00.000Z');
  });

  it('time of day: 24-hour or am/pm', () => {
    expect(parseTimeOfDay('9:05')).toBe('09:05');
    expect(parseTimeOfDay('16:30:00')).toBe('16:30');
    expect(parseTimeOfDay('4:30 pm')).toBe('16:30');
    expect(parseTimeOfDay('12:00 am')).toBe('00:00');
    expect(parseTimeOfDay('12:15 p.m.')).toBe('12:15');
    for (const bad of ['24:00', '13:00 pm', '9', 'noon', '09:60']) expect(parseTimeOfDay(bad), bad).toBeUndefined();
  });
});
