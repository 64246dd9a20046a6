/**
 * `GET /api/v1/catalog` (`OrgCatalog`): every operation with `callable` computed for the calling key:
 * true when the key's type and scopes allow it and the operation is implemented; otherwise `reason` says
 * why (`insufficient_scope`, `partner_only`, `not_implemented`).
 */
import type { OperationHandler } from '#http/context';
import { operations } from '#api/operations';

export const getCatalog: OperationHandler = async (_input, { principal }) => ({
  body: {
    data: operations.map((op) => {
      const reason =
        op.access === 'partner' ? 'partner_only' : !principal.scopes.includes(op.access) ? 'insufficient_scope' : op.availability.status !== 'implemented' ? 'not_implemented' : null;
      return { operation: op.operationId, method: op.method, path: op.path, scope: op.access, idempotent: op.idempotent, callable: reason === null, ...(reason ? { reason } : {}) };
    }),
    scopes: principal.scopes,
  },
});
