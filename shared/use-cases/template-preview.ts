/**
 * Rendering a template against a deal (spec "Templates and forms": `POST .../render-template`, a preview: nothing is
 * sent or stored), and the renderer a reminder's email uses when it is sent. Handlebars' parser is loaded on the first
 * render (shared/domain/template-fields.ts); no function bundles its compiler.
 */
import { getDeal } from '#db/transactions';
import { InvalidInput } from '#domain/errors';
import { mergeFieldsOf, type MergeField } from '#domain/merge-fields';
import type { EmailTemplate } from '#domain/system-email-templates';
import { TemplateSyntaxError } from '#domain/template-fields';
import { renderTemplate } from '#domain/template-render';
import { findEmailTemplate, mergeSourceOf } from '#use-cases/email-templates';

/** A template rendered against a deal. */
export interface RenderedTemplate {
  template: Pick<EmailTemplate, 'id' | 'slug' | 'name' | 'source'>;
  subject: string;
  body: string;
  /** Fields filled in. */
  mergeFields: string[];
  /** Names that are not merge fields (left as written). */
  unknownFields: string[];
  /** Merge fields with no value on the deal (left as written). */
  missingFields: string[];
  /** True when nothing is unknown or missing. */
  complete: boolean;
}

/**
 * Renders a template's subject and body with merge-field values.
 * @throws InvalidInput (`field`) when the template's text does not parse or uses unsupported syntax
 */
export async function renderWith(t: EmailTemplate, fields: MergeField[], field = 'templateId'): Promise<RenderedTemplate> {
  const values = new Map(fields.map((f) => [f.name, f.value]));
  try {
    const s = await renderTemplate(t.subject, values);
    const b = await renderTemplate(t.body, values);
    const union = (x: string[], y: string[]) => [...new Set([...x, ...y])];
    const unknownFields = union(s.unknownFields, b.unknownFields);
    const missingFields = union(s.missingFields, b.missingFields);
    return {
      template: { id: t.id, slug: t.slug, name: t.name, source: t.source },
      subject: s.text.replace(/\s*[\r\n]+\s*/g, ' ').trim(),
      body: b.text,
      mergeFields: union(s.fields, b.fields),
      unknownFields,
      missingFields,
      complete: !unknownFields.length && !missingFields.length,
    };
  } catch (err) {
    if (err instanceof TemplateSyntaxError) throw new InvalidInput({ [field]: `the template cannot be rendered: ${err.message}` });
    throw err;
  }
}

/**
 * Renders the template named by `templateId` or `slug` against the deal (a preview: nothing is sent or stored).
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput when neither or two different templates are named, or the named one does not exist
 */
export async function renderForDeal(orgId: string, transactionId: string, ref: { slug?: string | null; templateId?: string | null }): Promise<RenderedTemplate> {
  const deal = await getDeal(orgId, transactionId);
  const slug = ref.slug?.trim();
  if (!slug && !ref.templateId) throw new InvalidInput({ templateId: 'give templateId or slug', slug: 'give slug or templateId' });
  const byId = ref.templateId ? await findEmailTemplate(orgId, ref.templateId) : undefined;
  if (ref.templateId && !byId) throw new InvalidInput({ templateId: 'is not an email template of this organization' });
  const bySlug = slug ? await findEmailTemplate(orgId, slug) : undefined;
  if (slug && !bySlug) throw new InvalidInput({ slug: 'is not an email template of this organization' });
  if (byId && bySlug && byId.id !== bySlug.id) throw new InvalidInput({ slug: 'names another template than templateId; give one of them' });
  const t = (byId ?? bySlug)!;
  return renderWith(t, mergeFieldsOf(await mergeSourceOf(orgId, deal)), byId ? 'templateId' : 'slug');
}
