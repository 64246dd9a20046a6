/**
 * Records of applied extractions, in the deal's collection: `PK = ORG#<orgId>#TXN#<txnId>`,
 * `SK = APPLIED#<iso>#<jobId>`. The latest one tells which contract facts (financing, HOA) the deal's
 * missing-documents baseline follows.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { txnPk } from '#db/keys';
import type { AppliedContractFacts } from '#domain/documents';

/** What a deal remembers of an applied extraction (the latest one drives missing-documents). */
export interface AppliedExtraction extends AppliedContractFacts {
  jobId: string;
  documentId: string;
  formType: string;
  confidence: number;
  overridden: string[];
  appliedAt: string;
}

/** The record of an application, in the deal's collection. */
export const appliedExtractionItem = (orgId: string, transactionId: string, a: AppliedExtraction) => ({
  PK: txnPk(orgId, transactionId),
  SK: `APPLIED#${a.appliedAt}#${a.jobId}`,
  entity: 'AppliedExtraction',
  orgId,
  transactionId,
  ...a,
});

/** The conditional `Put` of an application record (for the transaction that applies the extraction). */
export const appliedExtractionPut = (orgId: string, transactionId: string, a: AppliedExtraction) => ({
  Put: { TableName: tableName(), Item: appliedExtractionItem(orgId, transactionId, a), ConditionExpression: 'attribute_not_exists(SK)' },
});

/** The deal's most recently applied extraction, or null (one `Query`, newest item only). */
export async function latestAppliedExtraction(orgId: string, transactionId: string): Promise<AppliedExtraction | null> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': txnPk(orgId, transactionId), ':p': 'APPLIED#' },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const i = out.Items?.[0];
  return i
    ? { jobId: i.jobId, documentId: i.documentId, formType: i.formType, confidence: i.confidence, overridden: i.overridden ?? [], appliedAt: i.appliedAt, financingType: i.financingType ?? null, hoa: i.hoa ?? null }
    : null;
}
