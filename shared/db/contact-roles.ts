/**
 * An organization's custom contact roles: `PK = ORG#<orgId>`, `SK = CONTACTROLE#<lower-cased name>`, so a name is
 * unique case-insensitively by construction (a conditional put decides a race). The built-in roles are not stored
 * (shared/domain/contact-roles.ts).
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { orgPk } from '#db/keys';
import { roleKey } from '#domain/contact-roles';

/** A role an organization added. Times are ISO 8601. */
export interface CustomContactRole {
  name: string;
  description: string | null;
  createdAt: string;
  createdBy: string | null;
}

const SK_PREFIX = 'CONTACTROLE#';
const roleItemKey = (orgId: string, name: string) => ({ PK: orgPk(orgId), SK: `${SK_PREFIX}${roleKey(name)}` });

const toRole = (item: Record<string, any>): CustomContactRole => ({ name: item.name, description: item.description ?? null, createdAt: item.createdAt, createdBy: item.createdBy ?? null });

/**
 * Stores a custom role.
 * @returns true when stored; false when the organization already has a role of that name (any case)
 */
export async function putCustomRole(orgId: string, role: CustomContactRole): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...roleItemKey(orgId, role.name), entity: 'ContactRole', orgId, ...role }, ConditionExpression: 'attribute_not_exists(SK)' }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** The organization's custom roles, by name (case-insensitive order), read strongly consistent. */
export async function listCustomRoles(orgId: string): Promise<CustomContactRole[]> {
  const out = await db().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)', ExpressionAttributeValues: { ':pk': orgPk(orgId), ':p': SK_PREFIX }, ConsistentRead: true }),
  );
  return (out.Items ?? []).map(toRole);
}
