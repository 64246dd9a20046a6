/** `GET /api/v1/transactions/{transactionId}/portal-link`: the deal's active client-portal link. */
import { defineOperation } from '#api/operation';
import { portalLinkResponse } from '#api/responses/pages';
import { publicBaseUrl } from '#ports/public-url';
import { issuePortalLink } from '#use-cases/intake';
import { uuidPath } from '#api/params';

export default defineOperation({
  operationId: 'getTransactionPortalLink',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/portal-link',
  access: 'read',
  summary: "The deal's active client-portal link.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  response: portalLinkResponse,
  responseDescription: 'A link to the deal\'s read-only client portal, valid 14 days. Only a link\'s hash is stored, so each read issues a fresh link; earlier ones keep working until they expire (14 days) or are revoked with DELETE.',
  /** `{data: {transactionId, url, expiresAt, active}}`. */
  handler: async ({ path }, { principal, now, event }) => ({ body: { data: await issuePortalLink(principal, path.transactionId, publicBaseUrl(event.requestContext.domainName), now) } }),
});
