/**
 * `GET /api/v1/account/export/latest`: state of the latest workspace export (owner only): `exists: false` before any,
 * `expired` once the archive passed its expiry. Never the archive or its link (those go by email).
 */
import { defineOperation } from '#api/operation';
import { latestExportResponse } from '#api/responses/account';
import { latestExport } from '#use-cases/workspace-export';

export default defineOperation({
  operationId: 'getLatestAccountExport',
  method: 'GET',
  path: '/api/v1/account/export/latest',
  access: 'read',
  summary: 'State of the latest workspace export (owner only).',
  response: latestExportResponse,
  handler: async (_input, { principal, now }) => ({ body: { data: await latestExport(principal, now) } }),
});
