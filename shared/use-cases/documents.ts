/**
 * Document changes that other parties hear about: an upload arriving on a deal, a document attached to a deal, a
 * document deleted. Each commits with its event (`document.uploaded`, `document.deleted`) in one transaction.
 */
import { deleteDocumentItem, markDocumentUploaded, updateDocument as writeDocumentChanges, type DocumentChanges, type DocumentRecord } from '#db/documents';
import { outboxPut } from '#db/outbox';
import type { DocumentEventData } from '#events/catalog';
import type { Actor } from '#events/outbox';

/** The payload of `document.uploaded` / `document.deleted` (thin: ids and a few key fields). */
const eventData = (d: DocumentRecord): DocumentEventData => ({ documentId: d.id, transactionId: d.transactionId, name: d.name, documentType: d.documentType, sizeBytes: d.sizeBytes });

/**
 * The `document.uploaded` of `d`, uploaded and belonging to a deal, for the transaction that makes it so (the upload
 * arriving, the document attached to a deal, a deal created from its extraction).
 */
export function documentUploadedPut(actor: Actor, d: DocumentRecord, now: Date) {
  return outboxPut(actor, 'document.uploaded', eventData(d), now);
}

/**
 * Records an upload's arrival once (see `markDocumentUploaded`), with `document.uploaded` when the document belongs
 * to a deal. The event's user is the document's creator.
 * @returns the updated document, or undefined for a repeated notification
 */
export async function recordUpload(d: DocumentRecord, sizeBytes: number, now: Date): Promise<DocumentRecord | undefined> {
  return markDocumentUploaded(d, sizeBytes, now, (updated) => (updated.transactionId ? [documentUploadedPut({ orgId: d.orgId, userId: d.createdBy }, updated, now)] : []));
}

/**
 * Renames, reclassifies or attaches a document to a deal (see shared/db/documents.ts `updateDocument`); attaching an
 * uploaded document emits `document.uploaded` (it now belongs to that deal).
 * @throws NotFound when the document or the deal does not exist in the organization
 */
export async function updateDocument(actor: Actor, documentId: string, changes: DocumentChanges, now: Date): Promise<DocumentRecord> {
  return writeDocumentChanges(actor, documentId, changes, now, (next) => (next.uploadState === 'uploaded' ? [documentUploadedPut(actor, next, now)] : []));
}

/**
 * Deletes the document item and emits `document.deleted`, together (the caller deletes the stored file afterwards).
 * @throws NotFound when absent or another organization's
 */
export async function deleteDocument(actor: Actor, documentId: string, now: Date): Promise<DocumentRecord> {
  return deleteDocumentItem(actor.orgId, documentId, (d) => [outboxPut(actor, 'document.deleted', eventData(d), now)]);
}
