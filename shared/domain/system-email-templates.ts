/**
 * The system email templates: the common transaction-coordination messages every organization can list, read and
 * render (spec "Templates and forms": organization and system templates). Their ids are fixed (v5-style constants)
 * so a client may store one; their slugs are reserved (an organization template never takes one).
 * Bodies are plain text with Handlebars merge fields (shared/domain/template-render.ts); their outlines
 * (shared/domain/template-outline.ts) are generated into system-template-outlines.json by
 * `npx tsx bin/template-outlines.ts`, so reading them needs no parser.
 */
import { mergeFieldsOfOutlines, type TemplateOutlines } from '#domain/template-outline';
import OUTLINES from './system-template-outlines.json' with { type: 'json' };

/** An email template as the API returns it (organization and system alike). */
export interface EmailTemplate {
  id: string;
  slug: string;
  /** `system` (shipped) or `organization` (created by the workspace). */
  source: 'system' | 'organization';
  name: string;
  subject: string;
  body: string;
  description: string | null;
  category: string | null;
  audience: string | null;
  stage: string | null;
  side: string | null;
  tone: string | null;
  isActive: boolean;
  /** Merge fields the subject and body insert, and those only their conditions test. */
  mergeFields: string[];
  createdAt: string;
  updatedAt: string;
}

/**
 * A template as the service reads it: with the outline of its subject and body. `null` for an organization template
 * saved before outlines were stored, until `npm run admin -- table backfill-indexes` gives it one (docs/indexes.md).
 */
export interface OutlinedTemplate extends EmailTemplate {
  outline: TemplateOutlines | null;
}

/** The template as the API returns it (without its outline). */
export const templateView = ({ outline: _outline, ...t }: OutlinedTemplate): EmailTemplate => t;

/** When the system templates were last revised (their `createdAt`/`updatedAt`). */
const REVISED = '2026-11-01T00:00:00.000Z';

type Seed = Omit<EmailTemplate, 'source' | 'isActive' | 'mergeFields' | 'createdAt' | 'updatedAt'>;

const SEEDS: Seed[] = [
  {
    id: '5e1f0c2a-8d1b-4c6e-9a01-000000000001',
    slug: 'under-contract',
    name: 'Under contract',
    subject: 'We are under contract: {{property.address}}',
    body: [
      'Hi {{client.firstName}},',
      '',
      'Great news: {{property.address}} is officially under contract. Here are the dates that matter from here:',
      '',
      '{{#if keyDates.InspectionDeadline}}- Option period / inspection ends: {{keyDates.InspectionDeadline}}',
      '{{/if}}{{#if keyDates.FinancingDeadline}}- Financing deadline: {{keyDates.FinancingDeadline}}',
      '{{/if}}- Closing: {{keyDates.ClosingDate}}',
      '',
      'I will keep you posted at every step. Reply to this email with any question.',
      '',
      '{{organization.name}}',
    ].join('\n'),
    description: 'Tells the client the contract is executed and lists the key dates ahead.',
    category: 'milestone',
    audience: 'client',
    stage: 'under_contract',
    side: null,
    tone: 'warm',
  },
  {
    id: '5e1f0c2a-8d1b-4c6e-9a01-000000000002',
    slug: 'option-period-ending',
    name: 'Option period ending',
    subject: 'Option period ends {{keyDates.InspectionDeadline}}: {{property.address}}',
    body: [
      'Hi {{client.firstName}},',
      '',
      'A reminder that the option period on {{property.address}} ends on {{keyDates.InspectionDeadline}} (5:00 p.m. local time under the TREC contract).',
      'If you want to negotiate repairs or terminate, we need your decision before then.',
      '',
      '{{organization.name}}',
    ].join('\n'),
    description: 'Warns the client that the option (inspection) period is about to end.',
    category: 'deadline',
    audience: 'client',
    stage: 'option_period',
    side: 'Buyer',
    tone: 'direct',
  },
  {
    id: '5e1f0c2a-8d1b-4c6e-9a01-000000000003',
    slug: 'clear-to-close',
    name: 'Clear to close',
    subject: 'Clear to close: {{property.address}}',
    body: [
      'Hi {{client.firstName}},',
      '',
      'The lender has issued clear to close on {{property.address}}. Closing is set for {{keyDates.ClosingDate}}.',
      '{{#if parties.escrowOfficerTitle.name}}{{parties.escrowOfficerTitle.name}} will send the closing details and wiring instructions; always confirm wiring instructions by phone before sending funds.',
      '{{/if}}',
      '{{organization.name}}',
    ].join('\n'),
    description: 'Tells the client the loan is approved for closing.',
    category: 'milestone',
    audience: 'client',
    stage: 'clear_to_close',
    side: null,
    tone: 'warm',
  },
  {
    id: '5e1f0c2a-8d1b-4c6e-9a01-000000000004',
    slug: 'closing-reminder',
    name: 'Closing reminder',
    subject: 'Closing on {{keyDates.ClosingDate}}: {{property.address}}',
    body: [
      'Hi {{client.firstName}},',
      '',
      'Closing on {{property.address}} is on {{keyDates.ClosingDate}}. Please bring a government-issued photo ID,',
      'and confirm any funds due at closing with the title company by phone before wiring.',
      '',
      '{{organization.name}}',
    ].join('\n'),
    description: 'Reminds the client of the closing date and what to bring.',
    category: 'deadline',
    audience: 'client',
    stage: 'closing',
    side: null,
    tone: 'warm',
  },
  {
    id: '5e1f0c2a-8d1b-4c6e-9a01-000000000005',
    slug: 'document-request',
    name: 'Document request',
    subject: 'Documents needed for {{property.address}}',
    body: [
      'Hi {{client.firstName}},',
      '',
      'To keep {{property.address}} on track for closing, please send the documents we discussed at your earliest convenience.',
      'You can reply to this email with them attached.',
      '',
      '{{organization.name}}',
    ].join('\n'),
    description: 'Asks a party for outstanding documents.',
    category: 'request',
    audience: 'client',
    stage: null,
    side: null,
    tone: 'direct',
  },
  {
    id: '5e1f0c2a-8d1b-4c6e-9a01-000000000006',
    slug: 'key-date-reminder',
    name: 'Key-date reminder',
    subject: 'Reminder: {{reminder.deadlineLabel}} on {{reminder.deadlineDate}} ({{property.address}})',
    body: [
      'This is a reminder that the {{reminder.deadlineLabel}} for {{property.address}} is on {{reminder.deadlineDate}}, {{reminder.daysBefore}} day(s) from this message.',
      '{{#if reminder.note}}',
      '{{reminder.note}}',
      '{{/if}}',
      '{{organization.name}}',
    ].join('\n'),
    description: 'The reminder email used when a reminder names no template.',
    category: 'reminder',
    audience: null,
    stage: null,
    side: null,
    tone: null,
  },
];

/** The subject and body of each system template, by id (the generator's input). */
export const systemTemplateTexts = (): { id: string; subject: string; body: string }[] => SEEDS.map(({ id, subject, body }) => ({ id, subject, body }));

/** The system templates with their generated outlines and the merge fields those give. */
export function systemTemplates(): OutlinedTemplate[] {
  const outlines = OUTLINES as Record<string, TemplateOutlines>;
  return SEEDS.map((s) => {
    const outline = outlines[s.id];
    if (!outline) throw new Error(`system template ${s.slug} has no outline: run npx tsx bin/template-outlines.ts`);
    return { ...s, source: 'system', isActive: true, mergeFields: mergeFieldsOfOutlines(outline), outline, createdAt: REVISED, updatedAt: REVISED };
  });
}

/** Slug of the template a reminder uses when it names none. */
export const DEFAULT_REMINDER_TEMPLATE = 'key-date-reminder';

/** True when `slug` is a system template's (an organization template never takes it). */
export const isSystemSlug = (slug: string): boolean => SEEDS.some((s) => s.slug === slug);

/** A template name as a slug: lower case, ASCII letters and digits joined by `-` (at most 80 characters). */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'template';
}
