/** API Gateway route keys of manifest operations. */
import type { OperationSpec } from '#api/types';

/** API Gateway route key of an operation, e.g. `GET /api/v1/transactions/{transactionId}`. */
export const routeKeyOf = (op: Pick<OperationSpec, 'method' | 'path'>): string => `${op.method} ${op.path}`;
