/** `GET /api/v1/transactions/{transactionId}/form-links`: the deal's intake-form links. */
import { defineOperation } from '#api/operation';
import { formLinksResponse } from '#api/responses/pages';
import { publicBaseUrl } from '#ports/public-url';
import { issueFormLinks } from '#use-cases/intake';
import { uuidPath } from '#api/params';

export default defineOperation({
  operationId: 'listTransactionFormLinks',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/form-links',
  access: 'read',
  summary: "The deal's intake-form links.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  response: formLinksResponse,
  responseDescription: 'One link per intake form of the deal\'s side. Only a link\'s hash is stored, so each read issues fresh links; earlier ones keep working until they expire (30 days) or are revoked with DELETE.',
  /** `{transactionId, data: [{formId, formName, formPurpose, url, expiresAt}]}`. */
  handler: async ({ path }, { principal, now, event }) => {
    const { links } = await issueFormLinks(principal, path.transactionId, publicBaseUrl(event.requestContext.domainName), now);
    return { body: { transactionId: path.transactionId, data: links } };
  },
});
