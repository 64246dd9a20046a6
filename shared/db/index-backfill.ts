/**
 * One-off backfill of the indexes issue 24 introduced, for a table holding items written before them
 * (docs/indexes.md). The local runtime starts with an empty table and never needs it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { gsi4 } from '#db/keys';
import { openTaskIndex } from '#db/task-items';
import { indexItem } from '#db/search-index';
import { templateOutlines, TemplateSyntaxError } from '#domain/template-fields';

/** Items changed per kind by {@link backfillIndexes}. */
export interface BackfillCounts {
  /** API keys and OAuth grants moved from GSI1 (projection ALL) to GSI4 (keys only). */
  credentials: number;
  /** Completed key dates taken off the open key-date index. */
  keyDates: number;
  /** Open tasks given their assignee's open-task entry (GSI2). */
  tasks: number;
  /** Deals and contacts given (or given again) their search tokens. */
  searchable: number;
  /** Organization email templates given the outline of their merge fields (shared/domain/template-outline.ts). */
  templates: number;
}

const ENTITIES = ['ApiKey', 'OAuthGrant', 'KeyDate', 'Task', 'Transaction', 'Contact', 'EmailTemplate'];

/** One conditional `UpdateItem`; false when its condition failed (the item changed or is already done). */
async function update(input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>): Promise<boolean> {
  try {
    await db().send(new UpdateCommand({ ...input, TableName: tableName() }));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** The change one scanned item needs; false when none. */
async function backfillItem(item: Record<string, any>): Promise<keyof BackfillCounts | false> {
  const Key = { PK: item.PK, SK: item.SK };
  switch (item.entity) {
    case 'ApiKey':
    case 'OAuthGrant': {
      if (!item.GSI1PK) return false;
      const gsi4pk = item.entity === 'ApiKey' ? gsi4.apiKeys(item.orgId) : gsi4.oauthGrants(item.userId, item.clientId);
      const moved = await update({
        Key,
        UpdateExpression: 'SET GSI4PK = :pk, GSI4SK = :sk REMOVE GSI1PK, GSI1SK',
        ConditionExpression: 'attribute_exists(GSI1PK)',
        ExpressionAttributeValues: { ':pk': gsi4pk, ':sk': item.keyId ?? item.grantId },
      });
      return moved && 'credentials';
    }
    case 'KeyDate':
      if (!item.completedAt || !item.GSI1PK) return false;
      return (await update({ Key, UpdateExpression: 'REMOVE GSI1PK, GSI1SK', ConditionExpression: 'attribute_exists(completedAt) AND completedAt <> :null', ExpressionAttributeValues: { ':null': null } })) && 'keyDates';
    case 'Task': {
      if (item.status !== 'open' || item.GSI2PK) return false;
      const entry = openTaskIndex(item.orgId, { id: item.id, dueDate: item.dueDate ?? null, assigneeUserId: item.assigneeUserId ?? null });
      const done = await update({
        Key,
        UpdateExpression: 'SET GSI2PK = :pk, GSI2SK = :sk',
        ConditionExpression: '#s = :open AND attribute_not_exists(GSI2PK)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':pk': entry.GSI2PK, ':sk': entry.GSI2SK, ':open': 'open' },
      });
      return done && 'tasks';
    }
    case 'Transaction':
    case 'Contact':
      await indexItem(item, false);
      return 'searchable';
    case 'EmailTemplate': {
      if (item.outline) return false;
      // The outline is what a reminder checks a deal against without a parser. Its text was checked when it was saved;
      // one that no longer parses keeps no outline (a reminder then finds blanks only when it renders it).
      let outline;
      try {
        outline = await templateOutlines(item.subject, item.body);
      } catch (err) {
        if (err instanceof TemplateSyntaxError) return false;
        throw err;
      }
      return (await update({ Key, UpdateExpression: 'SET outline = :o', ConditionExpression: 'attribute_not_exists(outline) OR outline = :null', ExpressionAttributeValues: { ':o': outline, ':null': null } })) && 'templates';
    }
    default:
      return false;
  }
}

/**
 * Scans the table (every page, `entity` filtered server-side) and gives each item written before issue 24's indexes
 * its new index attributes: credentials move to GSI4, completed key dates leave the open key-date index, open tasks
 * get their assignee entry, deals and contacts get their search tokens, organization email templates get their
 * outline. Every change is conditional or idempotent:
 * safe to run again, and against a live table (an item changed meanwhile keeps its newer state).
 * @param segments parallel scan segments (DynamoDB `TotalSegments`), 1 to 64
 */
export async function backfillIndexes(segments = 4): Promise<BackfillCounts> {
  const counts: BackfillCounts = { credentials: 0, keyDates: 0, tasks: 0, searchable: 0, templates: 0 };
  const values = Object.fromEntries(ENTITIES.map((e, i) => [`:e${i}`, e]));
  await Promise.all(
    Array.from({ length: segments }, async (_, Segment) => {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db().send(
          new ScanCommand({ TableName: tableName(), Segment, TotalSegments: segments, FilterExpression: `entity IN (${Object.keys(values).join(', ')})`, ExpressionAttributeValues: values, ExclusiveStartKey: start }),
        );
        for (const item of page.Items ?? []) {
          const kind = await backfillItem(item);
          if (kind) counts[kind]++;
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
  return counts;
}
