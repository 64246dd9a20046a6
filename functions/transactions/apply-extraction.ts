/**
 * `POST /api/v1/transactions` (ApplyExtraction): applies a completed extraction job, with optional
 * `overrides`, to a new deal or to `transactionId`, in one transaction (see shared/db/apply-extraction.ts).
 * Responds with the deal as `GET /transactions/{transactionId}` returns it.
 */
import type { OperationHandler } from '#http/context';
import { applyExtraction as apply } from '#db/apply-extraction';
import { getDeal } from '#db/transactions';

/** The deal after the apply (409 when the job is not completed or already applied; 404 for another organization's job or deal). */
export const applyExtraction: OperationHandler = async ({ body }, { principal, now }) => {
  const transactionId = await apply({ orgId: principal.orgId, userId: principal.userId }, body, now);
  return { body: { data: await getDeal(principal.orgId, transactionId) } };
};
