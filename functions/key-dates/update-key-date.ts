/**
 * `PATCH /api/v1/transactions/{transactionId}/key-dates/{keyDateType}`: changes one existing key date
 * (`newValue`, `source`, `calculationNotes`); linked tasks move with it.
 */
import type { OperationHandler } from '#http/context';
import { updateKeyDate as update } from '#db/key-dates';

export const updateKeyDate: OperationHandler = async ({ path, body }, { principal, now }) => ({
  body: {
    data: await update({ orgId: principal.orgId, userId: principal.userId }, path.transactionId, path.keyDateType, { dateValue: body.newValue, source: body.source, calculationNotes: body.calculationNotes }, now),
  },
});
