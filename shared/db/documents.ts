/**
 * Documents. One item per document in its own partition, `PK = ORG#<orgId>#DOC#<documentId>`, `SK = DOC`
 * (a document may exist before it belongs to a deal, and may be attached later, so it does not live in a
 * deal's collection). While attached to a deal it is in GSI1 `ORG#<orgId>#TXN#<txnId>#DOCS` /
 * `<order, 10 digits>#<documentId>`, so a deal's documents read in display order with one `Query`.
 *
 * The file is in the blob store at `s3Key` (`org/<orgId>/documents/<documentId>/<safeFileName>`).
 * `uploadState`: awaiting_upload → uploaded | failed (once, on the S3 notification). `extractionState`
 * mirrors the document's latest extraction job (none | queued | running | completed | failed).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { documentPk, gsi1 } from '#db/keys';
import { transactWrite, MAX_TRANSACT_ITEMS, type TransactItem } from '#db/transact';
import type { Actor } from '#events/outbox';
import { queryAll, transactionExistsCheck } from '#db/transactions';
import { Conflict, NotFound, InvalidInput } from '#domain/errors';
import type { DocumentType, DocumentTypeSource, FileProblem } from '#domain/documents';

/** Where the file of a document stands: awaiting its upload, stored, or refused (see `uploadError`). */
export type UploadState = 'awaiting_upload' | 'uploaded' | 'failed';
/** The state of the document's latest extraction job (`none` before the first). */
export type ExtractionState = 'none' | 'queued' | 'running' | 'completed' | 'failed';

/** A document as stored (the API shows `documentView` of it). */
export interface DocumentRecord {
  id: string;
  orgId: string;
  transactionId: string | null;
  /** The file name as given (display name). */
  name: string;
  documentType: DocumentType;
  documentTypeSource: DocumentTypeSource;
  contentType: string;
  /** Declared size at upload-url time, then the stored size once uploaded; bytes. */
  sizeBytes: number | null;
  s3Key: string;
  uploadState: UploadState;
  /** Why the upload failed (`empty_file`, `file_too_large`, `not_pdf`, `internal_error`), else null. */
  uploadError: { code: FileProblem | 'internal_error'; message: string } | null;
  extractionState: ExtractionState;
  /** Start an extraction when the upload arrives. */
  extractOnUpload: boolean;
  latestJobId: string | null;
  /** Position among the deal's documents (0-based after a reorder; appended documents go last). */
  order: number;
  createdAt: string;
  updatedAt: string;
  uploadedAt: string | null;
  createdBy: string | null;
}

/** Key of a document item. */
export const documentKeyOf = (orgId: string, documentId: string) => ({ PK: documentPk(orgId, documentId), SK: 'DOC' });
/** GSI1 partition listing a deal's documents. */
export const transactionDocsGsi1 = gsi1.dealDocuments;
/** GSI1 sort key: display order, then id. */
export const docOrderSk = (order: number, documentId: string) => `${String(Math.max(0, Math.trunc(order))).padStart(10, '0')}#${documentId}`;

/** The document item (with its GSI1 entry while attached to a deal). */
export function documentItem(d: DocumentRecord) {
  return {
    ...documentKeyOf(d.orgId, d.id),
    entity: 'Document',
    ...d,
    ...(d.transactionId ? { GSI1PK: transactionDocsGsi1(d.orgId, d.transactionId), GSI1SK: docOrderSk(d.order, d.id) } : {}),
  };
}

/** A document from its item. */
export function toDocument(item: Record<string, any>): DocumentRecord {
  return {
    id: item.id,
    orgId: item.orgId,
    transactionId: item.transactionId ?? null,
    name: item.name,
    documentType: item.documentType,
    documentTypeSource: item.documentTypeSource ?? 'filename',
    contentType: item.contentType,
    sizeBytes: item.sizeBytes ?? null,
    s3Key: item.s3Key,
    uploadState: item.uploadState,
    uploadError: item.uploadError ?? null,
    extractionState: item.extractionState ?? 'none',
    extractOnUpload: Boolean(item.extractOnUpload),
    latestJobId: item.latestJobId ?? null,
    order: Number(item.order ?? 0),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    uploadedAt: item.uploadedAt ?? null,
    createdBy: item.createdBy ?? null,
  };
}

/** The public view of a document (no storage key, no internal flags). */
export function documentView(d: DocumentRecord) {
  const { orgId: _o, s3Key: _k, extractOnUpload: _e, ...view } = d;
  return view;
}

/**
 * The document, or NotFound.
 * @param consistent strongly consistent read (the S3 notification path: the item was written just before the upload URL was handed out)
 * @throws NotFound when absent or another organization's
 */
export async function getDocument(orgId: string, documentId: string, consistent = false): Promise<DocumentRecord> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: documentKeyOf(orgId, documentId), ConsistentRead: consistent }));
  if (!out.Item) throw new NotFound('Document');
  return toDocument(out.Item);
}

/** The document, or undefined when it does not exist. */
export async function findDocument(orgId: string, documentId: string, consistent = false): Promise<DocumentRecord | undefined> {
  try {
    return await getDocument(orgId, documentId, consistent);
  } catch (err) {
    if (err instanceof NotFound) return undefined;
    throw err;
  }
}

/** A deal's documents in display order (one GSI1 query). */
export async function listTransactionDocuments(orgId: string, transactionId: string): Promise<DocumentRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': transactionDocsGsi1(orgId, transactionId) },
  });
  return items.map(toDocument);
}

/** The order a document appended to a deal gets: one past the last (one GSI1 query, newest entry only). */
export async function nextDocumentOrder(orgId: string, transactionId: string): Promise<number> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': transactionDocsGsi1(orgId, transactionId) },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const last = out.Items?.[0];
  return last ? Number(last.order ?? 0) + 1 : 0;
}

/**
 * The `Update` that attaches an unattached document to a deal at position `order` (fails when the document is
 * gone or already attached to a deal).
 */
export const attachDocumentUpdate = (orgId: string, documentId: string, transactionId: string, order: number, now: Date): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: documentKeyOf(orgId, documentId),
    UpdateExpression: 'SET transactionId = :t, #o = :o, GSI1PK = :pk, GSI1SK = :sk, updatedAt = :now',
    ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(transactionId) OR transactionId = :null)',
    ExpressionAttributeNames: { '#o': 'order' },
    ExpressionAttributeValues: { ':t': transactionId, ':o': order, ':pk': transactionDocsGsi1(orgId, transactionId), ':sk': docOrderSk(order, documentId), ':now': now.toISOString(), ':null': null },
  },
});

/**
 * Creates a document item (`awaiting_upload`). When it is attached to a deal, the deal must exist (checked
 * in the same transaction).
 * @throws NotFound when `transactionId` is not a deal of the organization
 */
export async function createDocument(d: DocumentRecord): Promise<DocumentRecord> {
  const items: TransactItem[] = [{ Put: { TableName: tableName(), Item: documentItem(d), ConditionExpression: 'attribute_not_exists(PK)' } }];
  if (d.transactionId) items.push(transactionExistsCheck(d.orgId, d.transactionId));
  await transactWrite(items, () => new NotFound('Transaction'));
  return d;
}

/**
 * Records the upload's arrival, once: `awaiting_upload` → `uploaded` with the stored size, with the caller's
 * `extra(updated)` writes (its event) in the same transaction.
 * @returns the updated document, or undefined when the upload was already processed (a repeated notification)
 */
export async function markDocumentUploaded(d: DocumentRecord, sizeBytes: number, now: Date, extra: (updated: DocumentRecord) => TransactItem[]): Promise<DocumentRecord | undefined> {
  const updated: DocumentRecord = { ...d, uploadState: 'uploaded', sizeBytes, uploadedAt: now.toISOString(), updatedAt: now.toISOString() };
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: documentKeyOf(d.orgId, d.id),
        UpdateExpression: 'SET uploadState = :up, sizeBytes = :s, uploadedAt = :now, updatedAt = :now',
        ConditionExpression: 'uploadState = :awaiting',
        ExpressionAttributeValues: { ':up': 'uploaded', ':s': sizeBytes, ':now': now.toISOString(), ':awaiting': 'awaiting_upload' },
      },
    },
  ];
  items.push(...extra(updated));
  return (await commitOnce(items)) ? updated : undefined;
}

/**
 * Records a refused upload, once: `awaiting_upload` → `failed` with the reason. With `failedJob` (the job
 * created already failed, see `failedJobCreateItems`) the document points at it (`latestJobId`,
 * `extractionState` failed) and its writes commit in the same transaction.
 * @returns the updated document, or undefined when the upload was already processed
 */
export async function markDocumentUploadFailed(
  d: DocumentRecord,
  error: { code: FileProblem | 'internal_error'; message: string },
  sizeBytes: number | null,
  now: Date,
  failedJob?: { jobId: string; items: TransactItem[] },
): Promise<DocumentRecord | undefined> {
  const updated: DocumentRecord = {
    ...d,
    uploadState: 'failed',
    uploadError: error,
    sizeBytes: sizeBytes ?? d.sizeBytes,
    updatedAt: now.toISOString(),
    ...(failedJob ? { latestJobId: failedJob.jobId, extractionState: 'failed' as const } : {}),
  };
  const ok = await commitOnce([
    {
      Update: {
        TableName: tableName(),
        Key: documentKeyOf(d.orgId, d.id),
        UpdateExpression: `SET uploadState = :failed, uploadError = :e, sizeBytes = :s, updatedAt = :now${failedJob ? ', latestJobId = :j, extractionState = :failed' : ''}`,
        ConditionExpression: 'uploadState = :awaiting',
        ExpressionAttributeValues: {
          ':failed': 'failed',
          ':e': error,
          ':s': updated.sizeBytes,
          ':now': now.toISOString(),
          ':awaiting': 'awaiting_upload',
          ...(failedJob ? { ':j': failedJob.jobId } : {}),
        },
      },
    },
    ...(failedJob?.items ?? []),
  ]);
  return ok ? updated : undefined;
}

/** Commits; false when the first item's condition failed (someone already did it). */
async function commitOnce(items: TransactItem[]): Promise<boolean> {
  class AlreadyDone extends Error {}
  try {
    await transactWrite(items, () => new AlreadyDone());
    return true;
  } catch (err) {
    if (err instanceof AlreadyDone) return false;
    throw err;
  }
}

/** What `updateDocument` may change (omitted fields are kept). */
export interface DocumentChanges {
  name?: string;
  documentType?: DocumentType;
  /** Attach to this deal (it must exist). */
  transactionId?: string;
}

/**
 * Renames, reclassifies (source `declared`) or attaches a document to a deal. Attaching appends it to the
 * deal's order and commits the caller's `onAttach(next)` writes (its event) in the same transaction.
 * @throws NotFound when the document or the deal does not exist in the organization
 */
export async function updateDocument(
  actor: Actor,
  documentId: string,
  changes: DocumentChanges,
  now: Date,
  onAttach: (next: DocumentRecord) => TransactItem[] = () => [],
): Promise<DocumentRecord> {
  const d = await getDocument(actor.orgId, documentId);
  const next: DocumentRecord = { ...d, updatedAt: now.toISOString() };
  const sets: string[] = ['updatedAt = :now'];
  const values: Record<string, unknown> = { ':now': next.updatedAt };
  const names: Record<string, string> = {};
  const extra: TransactItem[] = [];
  if (changes.name !== undefined) {
    next.name = changes.name;
    sets.push('#n = :name');
    names['#n'] = 'name';
    values[':name'] = changes.name;
  }
  if (changes.documentType !== undefined) {
    next.documentType = changes.documentType;
    next.documentTypeSource = 'declared';
    sets.push('documentType = :t', 'documentTypeSource = :ts');
    values[':t'] = changes.documentType;
    values[':ts'] = 'declared';
  }
  const attaching = changes.transactionId !== undefined && changes.transactionId !== d.transactionId;
  if (attaching) {
    next.transactionId = changes.transactionId!;
    next.order = await nextDocumentOrder(actor.orgId, next.transactionId);
    sets.push('transactionId = :txn', '#o = :order', 'GSI1PK = :g1pk', 'GSI1SK = :g1sk');
    names['#o'] = 'order';
    Object.assign(values, { ':txn': next.transactionId, ':order': next.order, ':g1pk': transactionDocsGsi1(actor.orgId, next.transactionId), ':g1sk': docOrderSk(next.order, d.id) });
    extra.push(transactionExistsCheck(actor.orgId, next.transactionId));
    extra.push(...onAttach(next));
  }
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: documentKeyOf(actor.orgId, d.id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(PK)',
          ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: values,
        },
      },
      ...extra,
    ],
    (index) => (index === 1 ? new NotFound('Transaction') : new NotFound('Document')),
  );
  return next;
}

/**
 * Deletes the document item with the caller's `extra(d)` writes (its event) in one transaction (the caller deletes
 * the stored file afterwards: a file left behind by a failed delete is harmless, a document without its file is not).
 * @throws NotFound when absent or another organization's
 */
export async function deleteDocumentItem(orgId: string, documentId: string, extra: (d: DocumentRecord) => TransactItem[]): Promise<DocumentRecord> {
  const d = await getDocument(orgId, documentId);
  await transactWrite(
    [{ Delete: { TableName: tableName(), Key: documentKeyOf(orgId, d.id), ConditionExpression: 'attribute_exists(PK)' } }, ...extra(d)],
    () => new NotFound('Document'),
  );
  return d;
}

/**
 * Sets the deal's document order. `orderedDocumentIds` must list exactly the deal's documents, each once.
 * One transaction (at most 100 documents).
 * @returns the documents in their new order
 * @throws InvalidInput when the list differs from the deal's documents or is too long
 * @throws NotFound when the deal does not exist in the organization
 */
export async function reorderDocuments(orgId: string, transactionId: string, orderedDocumentIds: string[], now: Date): Promise<DocumentRecord[]> {
  const docs = await listTransactionDocuments(orgId, transactionId);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const seen = new Set<string>();
  const duplicates = orderedDocumentIds.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  const unknown = orderedDocumentIds.filter((id) => !byId.has(id));
  const missing = docs.filter((d) => !seen.has(d.id)).map((d) => d.id);
  const problems: string[] = [];
  if (duplicates.length) problems.push(`listed more than once: ${[...new Set(duplicates)].join(', ')}`);
  if (unknown.length) problems.push(`not documents of this transaction: ${unknown.join(', ')}`);
  if (missing.length) problems.push(`missing: ${missing.join(', ')}`);
  if (problems.length) throw new InvalidInput({ orderedDocumentIds: `must list each of the transaction's ${docs.length} documents exactly once; ${problems.join('; ')}` });
  if (docs.length + 1 > MAX_TRANSACT_ITEMS) throw new InvalidInput({ orderedDocumentIds: `at most ${MAX_TRANSACT_ITEMS - 1} documents can be reordered at once` });
  const reordered = orderedDocumentIds.map((id, order) => ({ ...byId.get(id)!, order, updatedAt: now.toISOString() }));
  const items: TransactItem[] = [transactionExistsCheck(orgId, transactionId)];
  for (const d of reordered) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: documentKeyOf(orgId, d.id),
        UpdateExpression: 'SET #o = :o, GSI1SK = :sk, updatedAt = :now',
        ConditionExpression: 'transactionId = :t',
        ExpressionAttributeNames: { '#o': 'order' },
        ExpressionAttributeValues: { ':o': d.order, ':sk': docOrderSk(d.order, d.id), ':now': d.updatedAt, ':t': transactionId },
      },
    });
  }
  await transactWrite(items, (index) =>
    index === 0 ? new NotFound('Transaction') : new Conflict("The transaction's documents changed during the reorder; read them again and retry."),
  );
  return reordered;
}
