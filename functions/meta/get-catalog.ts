/**
 * `GET /api/v1/catalog` (`OrgCatalog`): every operation with `callable` computed for the calling key:
 * true when the key's type and scopes allow it and the operation is implemented; otherwise `reason` says
 * why (`insufficient_scope`, `partner_only`, `not_implemented`). The list is built into the function
 * (capability `catalog`), so answering reads nothing.
 */
import { defineOperation } from '#api/operation';
import { OrgCatalog } from '#api/responses/meta';

export default defineOperation({
  operationId: 'getCatalog',
  method: 'GET',
  path: '/api/v1/catalog',
  access: 'read',
  summary: 'Every operation with whether the calling key can call it.',
  response: () => OrgCatalog,
  uses: ['catalog'],
  handler: async (_input, { principal, catalog }) => {
    if (!catalog) throw new Error('getCatalog runs in a function built without the catalog capability');
    return {
      body: {
        data: catalog.map((op) => {
          const reason =
            op.access === 'partner'
              ? 'partner_only'
              : !principal.scopes.includes(op.access)
                ? 'insufficient_scope'
                : op.planned !== null
                  ? 'not_implemented'
                  : null;
          return {
            operation: op.operationId,
            method: op.method,
            path: op.path,
            scope: op.access,
            idempotent: op.idempotent,
            callable: reason === null,
            ...(reason ? { reason } : {}),
          };
        }),
        scopes: principal.scopes,
      },
    };
  },
});
