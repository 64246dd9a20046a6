/**
 * `DELETE /api/v1/transactions/{transactionId}/form-links` (designed here: the spec has no way to revoke intake-form
 * links): every intake-form link of the deal issued so far stops working at once; submissions already received stay.
 * The next `GET .../form-links` issues new ones.
 */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { linkRevocationResponse } from '#api/responses/pages';
import { revokeDealLinks } from '#use-cases/intake';

export default defineOperation({
  operationId: 'revokeTransactionFormLinks',
  method: 'DELETE',
  path: '/api/v1/transactions/{transactionId}/form-links',
  access: 'actions',
  summary: "Revokes the deal's intake-form links.",
  designedHere: true,
  schemas: () => ({ path: uuidPath('transactionId') }),
  response: linkRevocationResponse,
  responseDescription: 'Every intake-form link of the deal issued up to `revokedAt` now opens the plain 404 page; received submissions are kept; the next GET of the form links issues working ones. Revoking again is harmless.',
  /** `{data: {transactionId, kind: 'form', revokedAt}}` (404 for another organization's deal). */
  handler: async ({ path }, { principal, now }) => ({ body: { data: await revokeDealLinks(principal, path.transactionId, 'form', now) } }),
});
