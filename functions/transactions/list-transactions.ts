/** `GET /api/v1/transactions`: a page of deals, most recently updated first (`q`, `status`, `page`, `pageSize`). */
import type { OperationHandler } from '#http/context';
import { listTransactions as list } from '#db/transactions';

export const listTransactions: OperationHandler = async ({ query }, { principal }) => ({
  body: await list(principal.orgId, query),
});
