/**
 * `PATCH /api/v1/documents/{documentId}`: renames, reclassifies (`documentType`, a vocabulary value or a
 * phrase naming one) or attaches the document to a deal of the organization (404 otherwise).
 */
import type { OperationHandler } from '#http/context';
import { documentView, updateDocument as update } from '#db/documents';
import { classifyText } from '#domain/documents';

/** The updated document. */
export const updateDocument: OperationHandler = async ({ path, body }, { principal, now }) => {
  const doc = await update({ orgId: principal.orgId, userId: principal.userId }, path.documentId, {
    name: body.name,
    documentType: body.documentType !== undefined ? classifyText(body.documentType) : undefined,
    transactionId: body.transactionId,
  }, now);
  return { body: { data: documentView(doc) } };
};
