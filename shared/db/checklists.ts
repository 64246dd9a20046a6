/**
 * Applied checklists, in the deal's collection: `PK = ORG#<orgId>#TXN#<txnId>`, `SK = CHECKLIST#<templateId>`,
 * one item per template applied, listing the tasks it made (item key, section, task id). The tasks themselves are
 * ordinary tasks (shared/db/task-items.ts); this record is what ties them to the checklist for the aggregate status
 * and for `replaceExisting`.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { txnPk } from '#db/keys';
import type { TransactItem } from '#db/transact';
import type { ChecklistSection } from '#domain/checklists';

/** A task made from a template item. */
export interface ChecklistEntry {
  key: string;
  section: ChecklistSection;
  taskId: string;
}

/** A template applied to a deal. */
export interface AppliedChecklist {
  transactionId: string;
  templateId: string;
  templateName: string;
  /** First application, then the latest. ISO date-times. */
  firstAppliedAt: string;
  lastAppliedAt: string;
  entries: ChecklistEntry[];
}

const checklistKey = (orgId: string, transactionId: string, templateId: string) => ({ PK: txnPk(orgId, transactionId), SK: `CHECKLIST#${templateId}` });

/** The `Put` of an applied checklist (overwrites the template's record on the deal). */
export const appliedChecklistPut = (orgId: string, c: AppliedChecklist): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...checklistKey(orgId, c.transactionId, c.templateId), entity: 'AppliedChecklist', orgId, ...c } },
});

/** The `Delete` of an applied checklist left without entries. */
export const appliedChecklistDelete = (orgId: string, c: Pick<AppliedChecklist, 'transactionId' | 'templateId'>): TransactItem => ({
  Delete: { TableName: tableName(), Key: checklistKey(orgId, c.transactionId, c.templateId) },
});

/** The checklists applied to a deal (one `Query` of its collection's `CHECKLIST#` items), oldest first. */
export async function listAppliedChecklists(orgId: string, transactionId: string): Promise<AppliedChecklist[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': txnPk(orgId, transactionId), ':p': 'CHECKLIST#' },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? [])
    .map((i) => ({ transactionId: i.transactionId, templateId: i.templateId, templateName: i.templateName, firstAppliedAt: i.firstAppliedAt, lastAppliedAt: i.lastAppliedAt, entries: i.entries ?? [] }))
    .sort((a, b) => a.firstAppliedAt.localeCompare(b.firstAppliedAt));
}
