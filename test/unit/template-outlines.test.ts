/**
 * Template outlines (shared/domain/template-outline.ts): what a saved template carries so its fields can be checked
 * against a deal without Handlebars' parser. The outline gives the same merge fields, conditions and reached fields
 * as the parse tree; the system templates' generated outlines are current; a template's blank fields on a deal come
 * from its outline (shared/use-cases/email-templates.ts `blankFields`, what a reminder is refused for).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeTemplate, outlineOf, parseTemplate, templateOutlines } from '#domain/template-fields';
import { mergeFieldsOfOutlines, outlineFields, reachedFields } from '#domain/template-outline';
import { mergeFieldsOf, type MergeField, type MergeSource } from '#domain/merge-fields';
import { DEFAULT_REMINDER_TEMPLATE } from '#domain/system-email-templates';
import { blankFields, systemEmailTemplates } from '#use-cases/email-templates';
import { SYSTEM_TEMPLATE_OUTLINES_FILE, systemTemplateOutlinesJson } from '#lib/template-outlines';

const NESTED =
  'Hi {{client.firstName}}{{#if reminder.note}}, note: {{reminder.note}}{{else if parties.seller.name}}, seller {{parties.seller.name}}{{else}}, {{parties.seller.email}}{{/if}}.' +
  '{{#unless keyDates.InspectionDeadline}} No option period.{{else}} Option ends {{keyDates.InspectionDeadline}}.{{/unless}} {{! a comment }}{{property.address}} {{client.firstName}}';

describe('template outlines', () => {
  it('keep the fields and blocks of the parse tree in source order, without the wording', async () => {
    expect(outlineOf(await parseTemplate(NESTED))).toEqual([
      'client.firstName',
      { block: 'if', field: 'reminder.note', then: ['reminder.note'], else: [{ block: 'if', field: 'parties.seller.name', then: ['parties.seller.name'], else: ['parties.seller.email'] }] },
      { block: 'unless', field: 'keyDates.InspectionDeadline', then: [], else: ['keyDates.InspectionDeadline'] },
      'property.address',
      'client.firstName',
    ]);
  });

  it('give the fields and conditions the parser’s analysis gives', async () => {
    const text = `${NESTED}{{#if keyDates.ClosingDate}} Closing soon.{{/if}}`;
    const { fields, conditions } = await analyzeTemplate(text);
    expect(outlineFields(outlineOf(await parseTemplate(text)))).toEqual({ fields, conditions });
    expect(conditions).toEqual(['keyDates.ClosingDate']);
  });

  it('reach the fields of the branches taken: #if on a value, #unless without one, else-if chains', async () => {
    const nodes = outlineOf(await parseTemplate(NESTED));
    expect(reachedFields(nodes, () => false)).toEqual(['client.firstName', 'parties.seller.email', 'property.address']);
    expect(reachedFields(nodes, (f) => f === 'parties.seller.name')).toEqual(['client.firstName', 'parties.seller.name', 'property.address']);
    expect(reachedFields(nodes, () => true)).toEqual(['client.firstName', 'reminder.note', 'keyDates.InspectionDeadline', 'property.address']);
  });

  it('list a template’s merge fields as it is saved with them: inserted (subject, then body), then only tested', async () => {
    const o = await templateOutlines('{{property.address}}: {{#if keyDates.ClosingDate}}closing{{/if}}', NESTED);
    expect(mergeFieldsOfOutlines(o)).toEqual([
      'property.address',
      'client.firstName',
      'reminder.note',
      'parties.seller.name',
      'parties.seller.email',
      'keyDates.InspectionDeadline',
      'keyDates.ClosingDate',
    ]);
  });

  it('the generated system outlines are current (else: npx tsx bin/template-outlines.ts) and give each template its fields', async () => {
    expect(readFileSync(SYSTEM_TEMPLATE_OUTLINES_FILE, 'utf8')).toBe(await systemTemplateOutlinesJson());
    for (const t of systemEmailTemplates()) {
      expect(t.outline, t.slug).toEqual(await templateOutlines(t.subject, t.body));
      const s = await analyzeTemplate(t.subject);
      const b = await analyzeTemplate(t.body);
      expect(t.mergeFields, t.slug).toEqual([...new Set([...s.fields, ...b.fields, ...s.conditions, ...b.conditions])]);
    }
  });
});

describe('blank fields of a template on a deal', () => {
  const deal = (keyDates: MergeSource['deal']['keyDates']): MergeField[] =>
    mergeFieldsOf({
      organizationName: 'Live Oak Realty',
      deal: { propertyAddress: { street: '1207 Live Oak Ln', city: 'Austin', state: 'TX', zip: '78704' }, address: '1207 Live Oak Ln, Austin, TX 78704', transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract', keyDates, contacts: [] },
      reminder: { deadlineType: 'ClosingDate', deadlineLabel: 'Closing', deadlineDate: '2030-06-01', daysBefore: 3, note: null },
    });

  it('names the fields inserted without a value in the branches taken, not those only tested', async () => {
    const t = { outline: await templateOutlines('Closing {{keyDates.ClosingDate}}', '{{#if keyDates.OptionFeeDue}}Fee due {{keyDates.OptionFeeDue}}{{/if}} {{client.firstName}} {{#if reminder.note}}{{reminder.note}}{{/if}}') };
    expect(blankFields(t, deal([{ keyDateType: 'ClosingDate', dateValue: '2030-06-01' }]))).toEqual(['client.firstName']);
    expect(blankFields(t, deal([]))).toEqual(['keyDates.ClosingDate', 'client.firstName']);
  });

  it('names fields that are not merge fields, wherever they are', () => {
    const t = { outline: { subject: ['property.address'], body: [{ block: 'if' as const, field: 'buyer.name', then: [], else: [] }] } };
    expect(blankFields(t, deal([]))).toEqual(['buyer.name']);
  });

  it('the default reminder template has none on a deal with its deadline; a template without an outline reports none', () => {
    const reminder = systemEmailTemplates().find((t) => t.slug === DEFAULT_REMINDER_TEMPLATE)!;
    expect(blankFields(reminder, deal([{ keyDateType: 'ClosingDate', dateValue: '2030-06-01' }]))).toEqual([]);
    expect(blankFields({ outline: null }, deal([]))).toEqual([]);
  });
});
