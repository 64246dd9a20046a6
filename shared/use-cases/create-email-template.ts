/**
 * Creating an organization email template (spec "Templates and forms": `POST /email-templates`): its text is parsed
 * with Handlebars' parser and checked (it parses, uses only supported constructs and only merge fields), and it is
 * stored with its outline (shared/domain/template-outline.ts), so reading it later needs no parser.
 */
import { randomUUID } from 'node:crypto';
import { listOrgEmailTemplates, MAX_ORG_TEMPLATES, putEmailTemplate, SlugTaken } from '#db/email-templates';
import type { Actor } from '#events/outbox';
import { InvalidInput } from '#domain/errors';
import { isSystemSlug, slugify, templateView, type EmailTemplate, type OutlinedTemplate } from '#domain/system-email-templates';
import { analyzeTemplate, templateOutlines, TemplateSyntaxError } from '#domain/template-fields';
import { mergeFieldsOfOutlines } from '#domain/template-outline';

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
async function textProblem(text: string): Promise<string | undefined> {
  try {
    const a = await analyzeTemplate(text);
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
      const problem = await textProblem(text);
      if (problem) errors[field] = problem;
    }
  }
  if (Object.keys(errors).length) throw new InvalidInput(errors);
  const outline = await templateOutlines(input.subject!, input.body!);
  const existing = await listOrgEmailTemplates(actor.orgId);
  if (existing.length >= MAX_ORG_TEMPLATES) throw new InvalidInput({ name: `the organization has ${MAX_ORG_TEMPLATES} templates, the most it may have` });
  const trimmed = (v: string | null | undefined) => v?.trim() || null;
  const base = slugify(name!);
  const taken = new Set(existing.map((t) => t.slug));
  for (let n = 1; n < 1000; n++) {
    const slug = n === 1 ? base : `${base.slice(0, 75)}-${n}`;
    if (isSystemSlug(slug) || taken.has(slug)) continue;
    const t: OutlinedTemplate = {
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
      mergeFields: mergeFieldsOfOutlines(outline),
      outline,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    try {
      await putEmailTemplate(actor.orgId, t, actor.userId);
      return templateView(t);
    } catch (err) {
      // Taken meanwhile by a concurrent create: try the next suffix.
      if (!(err instanceof SlugTaken)) throw err;
      taken.add(slug);
    }
  }
  throw new InvalidInput({ name: 'no free slug is left for this name; choose another name' });
}
