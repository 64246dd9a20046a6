/**
 * `POST /api/v1/account/deletion/request`: schedules workspace deletion (owner only; `confirmName` must equal the
 * workspace name exactly, else 422 and nothing is scheduled). Freezes the workspace, emails the owner a cancel link
 * and schedules the purge after the grace period (shared/use-cases/workspace-deletion.ts).
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { deletionRequestResponse } from '#api/responses/account';
import { requestDeletion } from '#use-cases/workspace-deletion';

export default defineOperation({
  operationId: 'requestAccountDeletion',
  method: 'POST',
  path: '/api/v1/account/deletion/request',
  access: 'actions',
  summary: 'Schedules workspace deletion (owner only; confirmName must match the workspace name).',
  uses: ['messages:queue'],
  schemas: () => ({ body: z.object({ confirmName: z.nullable(z.string().check(z.maxLength(200))) }) }),
  example: { body: { confirmName: 'Example Realty' } },
  response: deletionRequestResponse,
  handler: async ({ body }, { principal, now }) => ({ body: { data: await requestDeletion(principal, body.confirmName, now) } }),
});
