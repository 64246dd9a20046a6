/**
 * `POST /api/v1/transactions` (ApplyExtraction): applies a completed extraction job, with optional
 * `overrides`, to a new deal or to `transactionId`, in one transaction (see shared/db/apply-extraction.ts).
 * Responds with the deal as `GET /transactions/{transactionId}` returns it.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid } from '#api/params';
import { overrides } from '#api/schemas/apply-extraction';
import { applyExtraction as apply } from '#use-cases/apply-extraction';
import { getDeal } from '#db/transactions';
import { dealResponse } from '#api/responses/deals';

export default defineOperation({
  operationId: 'applyExtraction',
  method: 'POST',
  path: '/api/v1/transactions',
  access: 'actions',
  summary: 'Applies an extraction result: creates a deal or attaches to transactionId.',
  /** Moves the deal's reminders that follow a key date it changes (their schedules). */
  response: () => dealResponse(),
  schemas: () => ({
    body: z.object({
      extractionJobId: uuid(),
      transactionId: z.nullish(uuid()),
      transactionType: z.nullish(z.enum(['Sale', 'Purchase', 'Listing'])),
      side: z.nullish(z.enum(['Buyer', 'Seller'])),
      /** Contract field name → value (null clears); validated per field in shared/domain/apply-extraction.ts. */
      overrides: z.nullish(overrides()),
    }),
  }),
  example: { body: { extractionJobId: '0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70', side: 'Buyer', transactionType: 'Purchase' } },
  /** The deal after the apply (422 on `extractionJobId` when the job is not completed or already applied; 404 for another organization's job or deal). */
  handler: async ({ body }, { principal, now }) => {
    const transactionId = await apply(principal, body, now);
    return { body: { data: await getDeal(principal.orgId, transactionId) } };
  },
});
