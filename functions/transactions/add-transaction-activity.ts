/** `POST /api/v1/transactions/{transactionId}/activity`: appends an entry to the deal's activity log. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { activityPut } from '#db/activity';
import { touchTransaction } from '#db/transactions';
import { transactWrite } from '#db/transact';
import { NotFound } from '#domain/errors';
import { dataOf } from '#api/responses/common';
import { Activity } from '#api/responses/deals';

export default defineOperation({
  operationId: 'addTransactionActivity',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/activity',
  access: 'draft',
  summary: "Appends an entry to the deal's activity log.",
  response: () => dataOf(Activity),
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      type: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
      summary: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
      details: z.nullish(z.string().check(z.maxLength(10_000))),
    }),
  }),
  example: { body: { type: 'call', summary: 'Called the lender about the appraisal' } },
  handler: async ({ path, body }, { principal, now }) => {
    const { entry, put } = activityPut(
      principal.orgId,
      {
        transactionId: path.transactionId,
        type: body.type,
        summary: body.summary,
        details: body.details ?? null,
        userId: principal.userId,
      },
      now,
    );
    // The touch fails for a missing or foreign deal, so nothing is written then.
    await transactWrite(
      [touchTransaction(principal.orgId, { id: path.transactionId }, now), put],
      () => new NotFound('Transaction'),
    );
    return { body: { data: entry } };
  },
});
