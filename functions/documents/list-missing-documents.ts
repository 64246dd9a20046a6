/**
 * `GET /api/v1/transactions/{transactionId}/missing-documents`: the purchase baseline (see
 * `purchaseBaseline`) against the deal's uploaded documents. The financing and HOA addenda are required
 * when the latest extraction applied to the deal says the contract is financed / the property has an HOA.
 * Response: `{data: [{documentType, label, reason}], present: [{documentType, label, documentIds}], basis}`.
 */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { listTransactionDocuments } from '#db/documents';
import { getTransactionHead } from '#db/transactions';
import { latestAppliedExtraction } from '#db/applied-extractions';
import { purchaseBaseline } from '#domain/documents';
import { missingDocumentsResponse } from '#api/responses/documents';

export default defineOperation({
  operationId: 'listMissingDocuments',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/missing-documents',
  access: 'read',
  summary: 'Documents missing against the purchase baseline.',
  response: () => missingDocumentsResponse(),
  schemas: () => ({ path: uuidPath('transactionId') }),
  /** Missing and present baseline documents, and the applied extraction the baseline was read from (or null). */
  handler: async ({ path }, { principal }) => {
    await getTransactionHead(principal.orgId, path.transactionId);
    const [docs, applied] = await Promise.all([
      listTransactionDocuments(principal.orgId, path.transactionId),
      latestAppliedExtraction(principal.orgId, path.transactionId),
    ]);
    const uploaded = docs.filter((d) => d.uploadState === 'uploaded');
    const baseline = purchaseBaseline(applied);
    const idsOf = (type: string) => uploaded.filter((d) => d.documentType === type).map((d) => d.id);
    return {
      body: {
        data: baseline.filter((r) => idsOf(r.documentType).length === 0),
        present: baseline
          .filter((r) => idsOf(r.documentType).length > 0)
          .map((r) => ({ documentType: r.documentType, label: r.label, documentIds: idsOf(r.documentType) })),
        basis: applied
          ? { extractionJobId: applied.jobId, appliedAt: applied.appliedAt, financingType: applied.financingType, hoa: applied.hoa }
          : null,
      },
    };
  },
});
