/**
 * `DELETE /api/v1/transactions/{transactionId}/portal-link` (designed here: the spec has no way to revoke the client
 * portal): every portal link of the deal issued so far stops working at once; the next `GET .../portal-link` issues
 * a new one.
 */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { linkRevocationResponse } from '#api/responses/pages';
import { revokeDealLinks } from '#use-cases/intake';

export default defineOperation({
  operationId: 'revokeTransactionPortalLink',
  method: 'DELETE',
  path: '/api/v1/transactions/{transactionId}/portal-link',
  access: 'actions',
  summary: "Revokes the deal's client-portal links.",
  designedHere: true,
  schemas: () => ({ path: uuidPath('transactionId') }),
  response: linkRevocationResponse,
  responseDescription: 'Every client-portal link of the deal issued up to `revokedAt` now opens the plain 404 page; the next GET of the portal link issues a working one. Revoking again is harmless.',
  /** `{data: {transactionId, kind: 'portal', revokedAt}}` (404 for another organization's deal). */
  handler: async ({ path }, { principal, now }) => ({ body: { data: await revokeDealLinks(principal, path.transactionId, 'portal', now) } }),
});
