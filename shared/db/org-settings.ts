/**
 * The organization's settings kept on its item (`PK = ORG#<orgId>`, `SK = ORG`, shared/db/orgs.ts): the branding
 * attributes `displayName`, `logoUrl`, `accentColor` and `settingsUpdatedAt`. A value cleared with null is stored as
 * null (the pages then fall back to the workspace name, no logo, the default accent).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { orgItemKey } from '#db/orgs';
import { setExpression } from '#db/set-expression';
import { NotFound } from '#domain/errors';

/** The settings as stored (null where never set or cleared). */
export interface OrgSettings {
  organizationId: string;
  /** The workspace name (set at creation; not changed here). */
  name: string;
  displayName: string | null;
  logoUrl: string | null;
  /** `#rrggbb`. */
  accentColor: string | null;
  /** ISO time of the last change, null before any. */
  updatedAt: string | null;
}

/** Fields a change may set; omitted ones are kept. */
export type OrgSettingsChange = Partial<Pick<OrgSettings, 'displayName' | 'logoUrl' | 'accentColor'>>;

const toSettings = (item: Record<string, any>): OrgSettings => ({
  organizationId: item.orgId,
  name: item.name,
  displayName: item.displayName ?? null,
  logoUrl: item.logoUrl ?? null,
  accentColor: item.accentColor ?? null,
  updatedAt: item.settingsUpdatedAt ?? null,
});

/** The organization's settings (one `GetItem`, projected), or undefined when the organization is gone. */
export async function getOrgSettings(orgId: string): Promise<OrgSettings | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: orgItemKey(orgId),
      ProjectionExpression: 'orgId, #n, displayName, logoUrl, accentColor, settingsUpdatedAt',
      ExpressionAttributeNames: { '#n': 'name' },
    }),
  );
  return out.Item ? toSettings(out.Item) : undefined;
}

/**
 * Applies a change to the organization item (conditional on its existence).
 * @returns the settings after the change
 * @throws NotFound when the organization is gone
 */
export async function updateOrgSettings(orgId: string, change: OrgSettingsChange, now: Date): Promise<OrgSettings> {
  const { expression, names, values } = setExpression({ ...change, settingsUpdatedAt: now.toISOString() });
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: orgItemKey(orgId),
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toSettings(out.Attributes!);
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new NotFound('organization');
    throw err;
  }
}
