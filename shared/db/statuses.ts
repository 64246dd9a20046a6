/**
 * The organization's status vocabulary: one item `PK = ORG#<orgId>`, `SK = STATUSES` holding the ordered
 * `StatusDefinition` list (names, categories, cascades). Seeded with the default at organization creation;
 * an operator edits it in the table to configure cascades.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { orgPk } from '#db/keys';
import { DEFAULT_STATUS_VOCABULARY, type StatusDefinition } from '#domain/statuses';

/** The item that stores a vocabulary (for organization creation's transaction). */
export const statusVocabularyItem = (orgId: string, statuses: StatusDefinition[] = DEFAULT_STATUS_VOCABULARY) => ({
  PK: orgPk(orgId),
  SK: 'STATUSES',
  entity: 'StatusVocabulary',
  orgId,
  statuses,
});

/** The organization's vocabulary; the default when none was stored. */
export async function getStatusVocabulary(orgId: string): Promise<StatusDefinition[]> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: orgPk(orgId), SK: 'STATUSES' } }));
  return (out.Item?.statuses as StatusDefinition[] | undefined) ?? DEFAULT_STATUS_VOCABULARY;
}
