/**
 * Status summaries of a deal (spec "Transactions": `POST .../status-summary`; "Also attached: ... status summaries"):
 * one per deal and audience, in the deal's item collection at `SK = SUMMARY#<audience, lower case>`, so saving
 * again for the same audience replaces it and the deal read lists them.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { txnPk } from '#db/keys';

export interface StatusSummary {
  transactionId: string;
  /** Who it is written for, as given (e.g. `client`, `listing agent`); one summary per audience, case-insensitively. */
  audience: string;
  subject: string | null;
  bodyMarkdown: string | null;
  keyPointBullets: string[];
  createdAt: string;
  updatedAt: string;
  updatedBy: string | null;
}

/** Sort-key prefix of status summaries in the deal's collection (shared/db/transactions.ts reads them with the deal). */
export const SUMMARY_SK = 'SUMMARY#';

/** The identity of an audience (one summary per audience, case-insensitively). */
export const audienceKey = (audience: string) => audience.trim().toLowerCase();

export function toStatusSummary(item: Record<string, any>): StatusSummary {
  const { transactionId, audience, subject, bodyMarkdown, keyPointBullets, createdAt, updatedAt, updatedBy } = item;
  return { transactionId, audience, subject: subject ?? null, bodyMarkdown: bodyMarkdown ?? null, keyPointBullets: keyPointBullets ?? [], createdAt, updatedAt, updatedBy: updatedBy ?? null };
}

/**
 * Saves the summary for its audience: replaces the content, keeps the first `createdAt`. The caller checked the deal.
 * @returns the summary as stored
 */
export async function saveStatusSummary(orgId: string, s: Omit<StatusSummary, 'createdAt'>): Promise<StatusSummary> {
  const out = await db().send(
    new UpdateCommand({
      ReturnValues: 'ALL_NEW',
      TableName: tableName(),
      Key: { PK: txnPk(orgId, s.transactionId), SK: `${SUMMARY_SK}${audienceKey(s.audience)}` },
      UpdateExpression:
        'SET entity = :e, orgId = :o, transactionId = :t, audience = :a, subject = :s, bodyMarkdown = :b, keyPointBullets = :k, createdAt = if_not_exists(createdAt, :now), updatedAt = :now, updatedBy = :u',
      ExpressionAttributeValues: {
        ':e': 'StatusSummary',
        ':o': orgId,
        ':t': s.transactionId,
        ':a': s.audience,
        ':s': s.subject,
        ':b': s.bodyMarkdown,
        ':k': s.keyPointBullets,
        ':now': s.updatedAt,
        ':u': s.updatedBy,
      },
    }),
  );
  return toStatusSummary(out.Attributes!);
}
