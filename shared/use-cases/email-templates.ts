/**
 * Email templates and merge fields (spec "Templates and forms"; `GET .../merge-fields`, `POST .../render-template`):
 * the organization's templates with the system ones, reading one by id or slug, a deal's merge fields, and the fields
 * a template would leave blank on a deal. Nothing here parses a template: each carries its outline
 * (shared/domain/template-outline.ts), so the groups that only read templates (transactions, for reminders) bundle
 * no Handlebars. Creating one (its text parsed and checked) is shared/use-cases/create-email-template.ts; rendering
 * one is shared/use-cases/template-preview.ts.
 */
import { getEmailTemplateById, getEmailTemplateBySlug, listOrgEmailTemplates } from '#db/email-templates';
import { getOrganization } from '#db/orgs';
import { getDeal, type Deal } from '#db/transactions';
import { NotFound } from '#domain/errors';
import { isMergeFieldName, mergeFieldsOf, type MergeField, type MergeSource } from '#domain/merge-fields';
import { systemTemplates, templateView, type EmailTemplate, type OutlinedTemplate } from '#domain/system-email-templates';
import { outlineFields, reachedFields } from '#domain/template-outline';

let system: OutlinedTemplate[] | undefined;
/** The system templates (built once per process). */
export const systemEmailTemplates = (): OutlinedTemplate[] => (system ??= systemTemplates());

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
    .slice(0, f.limit)
    .map(templateView);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A template by id (uuid) or slug: a system template or one of the organization's (active or not).
 * @returns undefined when there is none
 */
export async function findEmailTemplate(orgId: string, idOrSlug: string): Promise<OutlinedTemplate | undefined> {
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
  return templateView(t);
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
 * branches its conditions take) that have no value. A template without an outline (saved before outlines were
 * stored, not yet backfilled) reports none here; the send checks its rendered text again and does not send blanks
 * (shared/use-cases/reminder-send.ts).
 */
export function blankFields(t: Pick<OutlinedTemplate, 'outline'>, fields: MergeField[]): string[] {
  const values = new Map(fields.map((f) => [f.name, f.value]));
  const has = (f: string) => isMergeFieldName(f) && Boolean(values.get(f));
  const blank = new Set<string>();
  for (const nodes of t.outline ? [t.outline.subject, t.outline.body] : []) {
    const { fields: inserted, conditions } = outlineFields(nodes);
    for (const f of [...inserted, ...conditions]) if (!isMergeFieldName(f)) blank.add(f);
    for (const f of reachedFields(nodes, has)) if (!has(f)) blank.add(f);
  }
  return [...blank];
}
