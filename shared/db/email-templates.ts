/**
 * An organization's email templates (spec "Templates and forms": `GET/POST /email-templates`,
 * `GET /email-templates/{idOrSlug}`). All in one partition `PK = ORG#<orgId>#EMAILTPL`: the template at
 * `SK = TPL#<id>`, and a claim of its slug at `SK = SLUG#<slug>` (written with it, conditionally, so a slug names
 * one template of the organization). System templates are not stored (shared/domain/system-email-templates.ts).
 * A template item holds its `outline` (shared/domain/template-outline.ts) from when it is saved; items saved before
 * outlines lack it until `npm run admin -- table backfill-indexes` writes it (shared/db/index-backfill.ts).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { emailTemplatesPk } from '#db/keys';
import { transactWrite } from '#db/transact';
import type { OutlinedTemplate } from '#domain/system-email-templates';

const pk = emailTemplatesPk;
const templateKey = (orgId: string, id: string) => ({ PK: pk(orgId), SK: `TPL#${id}` });
const slugKey = (orgId: string, slug: string) => ({ PK: pk(orgId), SK: `SLUG#${slug}` });

/** An organization template can hold at most this many per organization (the list reads them all). */
export const MAX_ORG_TEMPLATES = 500;

/** The slug is taken by another template of the organization. */
export class SlugTaken extends Error {}

function toTemplate(item: Record<string, any>): OutlinedTemplate {
  const { id, slug, name, subject, body, description, category, audience, stage, side, tone, isActive, mergeFields, outline, createdAt, updatedAt } = item;
  return {
    id,
    slug,
    source: 'organization',
    name,
    subject,
    body,
    description: description ?? null,
    category: category ?? null,
    audience: audience ?? null,
    stage: stage ?? null,
    side: side ?? null,
    tone: tone ?? null,
    isActive: Boolean(isActive),
    mergeFields: mergeFields ?? [],
    outline: outline ?? null,
    createdAt,
    updatedAt,
  };
}

/**
 * Stores a new template and claims its slug.
 * @throws SlugTaken when another template of the organization has the slug
 */
export async function putEmailTemplate(orgId: string, t: OutlinedTemplate, createdBy: string | null): Promise<void> {
  const { source: _source, ...fields } = t;
  await transactWrite(
    [
      { Put: { TableName: tableName(), Item: { ...slugKey(orgId, t.slug), entity: 'EmailTemplateSlug', orgId, templateId: t.id }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Put: { TableName: tableName(), Item: { ...templateKey(orgId, t.id), entity: 'EmailTemplate', orgId, ...fields, createdBy }, ConditionExpression: 'attribute_not_exists(PK)' } },
    ],
    () => new SlugTaken(t.slug),
  );
}

/** The organization's template with this id, or undefined. */
export async function getEmailTemplateById(orgId: string, id: string): Promise<OutlinedTemplate | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: templateKey(orgId, id) }));
  return out.Item ? toTemplate(out.Item) : undefined;
}

/** The organization's template with this slug, or undefined. */
export async function getEmailTemplateBySlug(orgId: string, slug: string): Promise<OutlinedTemplate | undefined> {
  const claim = await db().send(new GetCommand({ TableName: tableName(), Key: slugKey(orgId, slug) }));
  return claim.Item ? getEmailTemplateById(orgId, claim.Item.templateId) : undefined;
}

/** Every template of the organization (active or not), oldest first. */
export async function listOrgEmailTemplates(orgId: string): Promise<OutlinedTemplate[]> {
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :tpl)',
        ExpressionAttributeValues: { ':pk': pk(orgId), ':tpl': 'TPL#' },
        ExclusiveStartKey,
      }),
    );
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.map(toTemplate).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}
