/**
 * Response schemas of email templates, merge fields and rendered previews (spec "Templates and forms";
 * `GET .../merge-fields`, `POST .../render-template`), as shared/use-cases/email-templates.ts returns them.
 */
import * as z from '#api/zod';
import { id, nullableString, resource, timestamp } from '#api/responses/common';

export const EmailTemplate = resource(
  'EmailTemplate',
  'An email template: `system` (shipped, fixed id and slug) or `organization`. `subject` and `body` are Handlebars text naming merge fields (`{{property.address}}`); `mergeFields` lists those it uses.',
  z.object({
    id: id(),
    slug: z.string(),
    source: z.enum(['system', 'organization']),
    name: z.string(),
    subject: z.string(),
    body: z.string(),
    description: nullableString(),
    category: nullableString(),
    audience: nullableString(),
    stage: nullableString(),
    side: nullableString(),
    tone: nullableString(),
    isActive: z.boolean(),
    mergeFields: z.array(z.string()),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

export const MergeField = resource(
  'MergeField',
  'A merge field of a deal: its name as a template writes it (`{{keyDates.ClosingDate}}`) and its value, null when the deal has none.',
  z.object({ name: z.string(), description: z.string(), value: nullableString() }),
);

export const RenderedTemplate = resource(
  'RenderedTemplate',
  'A template rendered against a deal (a preview; nothing is sent). Unknown fields and fields without a value stay in the text as written and are listed; `complete` is true when there are none.',
  z.object({
    template: z.object({ id: id(), slug: z.string(), name: z.string(), source: z.enum(['system', 'organization']) }),
    subject: z.string(),
    body: z.string(),
    mergeFields: z.array(z.string()),
    unknownFields: z.array(z.string()),
    missingFields: z.array(z.string()),
    complete: z.boolean(),
  }),
);
