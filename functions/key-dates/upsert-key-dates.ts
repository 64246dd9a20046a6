/**
 * `POST /api/v1/transactions/{transactionId}/key-dates`: bulk upsert. A type appears at most once per
 * transaction: writing it again updates it; the same type twice in one request is a 422.
 */
import type { OperationHandler } from '#http/context';
import { upsertKeyDates as upsert } from '#db/key-dates';

export const upsertKeyDates: OperationHandler = async ({ path, body }, { principal, now }) => ({
  body: { data: await upsert({ orgId: principal.orgId, userId: principal.userId }, path.transactionId, body.keyDates, now) },
});
