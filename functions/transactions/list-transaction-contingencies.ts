/** `GET /api/v1/transactions/{transactionId}/contingencies`: the deal's open contingencies. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { listOf } from '#api/responses/common';
import { Contingency } from '#api/responses/checklists';
import { latestAppliedExtraction } from '#db/applied-extractions';
import { getDeal } from '#db/transactions';
import { dateOf } from '#domain/calendar';
import { openContingencies } from '#domain/contingencies';

export default defineOperation({
  operationId: 'listTransactionContingencies',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/contingencies',
  access: 'read',
  summary: "The deal's open contingencies (option period, financing, appraisal, title/survey, HOA) from its applied contract and key dates, each with its deadline and state.",
  response: () => listOf(Contingency),
  schemas: () => ({ path: uuidPath('transactionId') }),
  handler: async ({ path }, { principal, now }) => {
    const deal = await getDeal(principal.orgId, path.transactionId);
    const facts = await latestAppliedExtraction(principal.orgId, path.transactionId);
    return { body: { data: openContingencies(facts, deal.keyDates, dateOf(now)) } };
  },
});
