/**
 * `POST /api/v1/account/export/request`: starts a workspace export delivered by email (owner only; one at a time:
 * while one is building it is returned with `alreadyRunning: true`). Callable while the workspace is frozen for
 * deletion, so an owner can keep a copy before the purge.
 */
import { defineOperation } from '#api/operation';
import { exportRequestResponse } from '#api/responses/account';
import { requestExport } from '#use-cases/workspace-export';

export default defineOperation({
  operationId: 'requestAccountExport',
  method: 'POST',
  path: '/api/v1/account/export/request',
  access: 'actions',
  summary: 'Starts a workspace export delivered by email (owner only).',
  whileFrozen: true,
  response: exportRequestResponse,
  handler: async (_input, { principal, now }) => ({ body: { data: await requestExport(principal, now) } }),
});
