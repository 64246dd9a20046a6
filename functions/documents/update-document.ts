/**
 * `PATCH /api/v1/documents/{documentId}`: renames, reclassifies (`documentType`, a vocabulary value or a
 * phrase naming one) or attaches the document to a deal of the organization (404 otherwise).
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { documentType, fileName } from '#api/schemas/documents';
import { name } from '#api/schemas/webhooks';
import { documentView } from '#db/documents';
import { updateDocument as update } from '#use-cases/documents';
import { classifyText } from '#domain/documents';
import { documentResponse } from '#api/responses/documents';

export default defineOperation({
  operationId: 'updateDocument',
  method: 'PATCH',
  path: '/api/v1/documents/{documentId}',
  access: 'draft',
  summary: "Changes a document's type or name, or attaches it to a deal.",
  response: () => documentResponse(),
  designedHere: true,
  schemas: () => ({
    path: uuidPath('documentId'),
    body: z
      .object({
        documentType: z.optional(documentType()),
        name: z.optional(fileName()),
        transactionId: z.optional(uuid()),
      })
      .check(
        z.refine(
          (b) => b.documentType !== undefined || b.name !== undefined || b.transactionId !== undefined,
          'give at least one of documentType, name, transactionId',
        ),
      ),
  }),
  example: { body: { name: 'Executed contract.pdf' } },
  /** The updated document. */
  handler: async ({ path, body }, { principal, now }) => {
    const doc = await update(
      principal,
      path.documentId,
      {
        name: body.name,
        documentType: body.documentType !== undefined ? classifyText(body.documentType) : undefined,
        transactionId: body.transactionId,
      },
      now,
    );
    return { body: { data: documentView(doc) } };
  },
});
