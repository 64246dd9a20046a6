/**
 * Email templates and merge fields (spec "Templates and forms"; `GET .../merge-fields`, `POST .../render-template`):
 * the organization's templates with the system ones, creating one (its text checked: it parses, uses only supported
 * constructs and only merge fields), reading one by id or slug, a deal's merge fields, and rendering a template
 * against a deal as a preview (nothing is sent or stored: shared/use-cases/template-preview.ts, which alone bundles
 * the Handlebars compiler; this module needs only its parser).
 */
import { randomUUID } from 'node:crypto';
import { getEmailTemplateById, getEmailTemplateBySlug, listOrgEmailTemplates, MAX_ORG_TEMPLATES, putEmailTemplate, SlugTaken } from '#db/email-templates';
import { getOrganization } from '#db/orgs';
import { getDeal, type Deal } from '#db/transactions';
import type { Actor } from '#events/outbox';
import { InvalidInput, NotFound } from '#domain/errors';
import { isMergeFieldName, mergeFieldsOf, type MergeField, type MergeSource } from '#domain/merge-fields';
import { isSystemSlug, slugify, systemTemplates, type EmailTemplate } from '#domain/system-email-templates';
import { analyzeTemplate, parseTemplate, reachedFields, TemplateSyntaxError } from '#domain/template-fields';

/** The merge fields a subject and body use (inserted first, then tested only), for a template's `mergeFields`. */
export function templateFields(subject: string, body: string): string[] {
  const s = analyzeTemplate(subject);
  const b = analyzeTemplate(body);
  return [...new Set([...s.fields, ...b.fields, ...s.conditions, ...b.conditions])];
}

let system: EmailTemplate[] | undefined;
/** The system templates (analyzed once per process). */
export const systemEmailTemplates = (): EmailTemplate[] => (system ??= systemTemplates(templateFields));

/** Filters of the template list; text filters match case-insensitively, `search` within name, slug, subject and description. */
export interface TemplateFilter {
  category?: string;
  audience?: string;
  stage?: string;
  side?: string;
  search?: string;
  limit: number;
}

/** Active organization templates (by name), then the system ones (by name), filtered; at most `limit`. */
export async function listEmailTemplates(orgId: string, f: TemplateFilter): Promise<EmailTemplate[]> {
  const byName = (a: EmailTemplate, b: EmailTemplate) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  const all = [...(await listOrgEmailTemplates(orgId)).sort(byName), ...[...systemEmailTemplates()].sort(byName)];
  const eq = (want: string | undefined, have: string | null) => !want?.trim() || (have ?? '').toLowerCase() === want.trim().toLowerCase();
  const q = f.search?.trim().toLowerCase();
  return all
    .filter((t) => t.isActive && eq(f.category, t.category) && eq(f.audience, t.audience) && eq(f.stage, t.stage) && eq(f.side, t.side))
    .filter((t) => !q || [t.name, t.slug, t.subject, t.description ?? ''].some((s) => s.toLowerCase().includes(q)))
    .slice(0, f.limit);
}

/** What creating a template takes (all optional in the request; name, subject and body are required here). */
export interface NewTemplate {
  name?: string | null;
  subject?: string | null;
  body?: string | null;
  description?: string | null;
  category?: string | null;
  audience?: string | null;
  stage?: string | null;
  side?: string | null;
  tone?: string | null;
  isActive?: boolean | null;
}

/** Checks one template text. @returns the error message for its field, or undefined when it is usable */
function textProblem(text: string): string | undefined {
  try {
    const a = analyzeTemplate(text);
    if (a.unsupported.length) return `uses unsupported template syntax: ${a.unsupported.join('; ')}`;
    if (a.unknownFields.length) return `uses unknown merge fields: ${a.unknownFields.join(', ')} (GET /api/v1/transactions/{transactionId}/merge-fields lists them)`;
  } catch (err) {
    if (err instanceof TemplateSyntaxError) return `does not parse: ${err.message}`;
    throw err;
  }
  return undefined;
}

/**
 * Creates an organization template. Its slug is made from the name, with `-2`, `-3`… when the name's slug is
 * taken (by a system template or another of the organization's).
 * @throws InvalidInput for a missing name, subject or body, a text that does not parse, unsupported syntax,
 *   unknown merge fields, or an organization at its template limit
 */
export async function createEmailTemplate(actor: Actor, input: NewTemplate, now: Date): Promise<EmailTemplate> {
  const errors: Record<string, string> = {};
  const name = input.name?.trim();
  if (!name) errors.name = 'is required';
  for (const field of ['subject', 'body'] as const) {
    const text = input[field];
    if (!text?.trim()) errors[field] = 'is required';
    else if (field === 'subject' && /[\r\n]/.test(text)) errors.subject = 'must be one line';
    else {
      const problem = textProblem(text);
      if (problem) errors[field] = problem;
    }
  }
  if (Object.keys(errors).length) throw new InvalidInput(errors);
  const existing = await listOrgEmailTemplates(actor.orgId);
  if (existing.length >= MAX_ORG_TEMPLATES) throw new InvalidInput({ name: `the organization has ${MAX_ORG_TEMPLATES} templates, the most it may have` });
  const trimmed = (v: string | null | undefined) => v?.trim() || null;
  const base = slugify(name!);
  const taken = new Set(existing.map((t) => t.slug));
  for (let n = 1; n < 1000; n++) {
    const slug = n === 1 ? base : `${base.slice(0, 75)}-${n}`;
    if (isSystemSlug(slug) || taken.has(slug)) continue;
    const t: EmailTemplate = {
      id: randomUUID(),
      slug,
      source: 'organization',
      name: name!,
      subject: input.subject!,
      body: input.body!,
      description: trimmed(input.description),
      category: trimmed(input.category),
      audience: trimmed(input.audience),
      stage: trimmed(input.stage),
      side: trimmed(input.side),
      tone: trimmed(input.tone),
      isActive: input.isActive ?? true,
      mergeFields: templateFields(input.subject!, input.body!),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    try {
      await putEmailTemplate(actor.orgId, t, actor.userId);
      return t;
    } catch (err) {
      // Taken meanwhile by a concurrent create: try the next suffix.
      if (!(err instanceof SlugTaken)) throw err;
      taken.add(slug);
    }
  }
  throw new InvalidInput({ name: 'no free slug is left for this name; choose another name' });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A template by id (uuid) or slug: a system template or one of the organization's (active or not).
 * @returns undefined when there is none
 */
export async function findEmailTemplate(orgId: string, idOrSlug: string): Promise<EmailTemplate | undefined> {
  if (UUID.test(idOrSlug)) {
    const id = idOrSlug.toLowerCase();
    return systemEmailTemplates().find((t) => t.id === id) ?? (await getEmailTemplateById(orgId, id));
  }
  return systemEmailTemplates().find((t) => t.slug === idOrSlug) ?? (await getEmailTemplateBySlug(orgId, idOrSlug));
}

/** A template by id or slug. @throws NotFound when there is none (or it is another organization's) */
export async function getEmailTemplate(orgId: string, idOrSlug: string): Promise<EmailTemplate> {
  const t = await findEmailTemplate(orgId, idOrSlug);
  if (!t) throw new NotFound('Email template');
  return t;
}

/** What merge fields are computed from, for a deal already read. */
export async function mergeSourceOf(orgId: string, deal: Deal, reminder?: MergeSource['reminder']): Promise<MergeSource> {
  const org = await getOrganization(orgId);
  return { organizationName: org?.name ?? null, deal, reminder };
}

/** The deal's merge fields and values. @throws NotFound for a deal that is absent or another organization's */
export async function dealMergeFields(orgId: string, transactionId: string): Promise<MergeField[]> {
  const deal = await getDeal(orgId, transactionId);
  return mergeFieldsOf(await mergeSourceOf(orgId, deal));
}

/**
 * The merge fields a template would leave blank with these values: unknown names, and fields it inserts (in the
 * branches its conditions take) that have no value.
 * @throws TemplateSyntaxError when its text does not parse
 */
export function blankFields(t: Pick<EmailTemplate, 'subject' | 'body'>, fields: MergeField[]): string[] {
  const values = new Map(fields.map((f) => [f.name, f.value]));
  const has = (f: string) => isMergeFieldName(f) && Boolean(values.get(f));
  const blank = new Set<string>();
  for (const text of [t.subject, t.body]) {
    const tree = parseTemplate(text);
    for (const f of analyzeTemplate(text).unknownFields) blank.add(f);
    for (const f of reachedFields(tree, has)) if (!has(f)) blank.add(f);
  }
  return [...blank];
}
