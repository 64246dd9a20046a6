/** `POST /api/v1/account/deletion/request`: schedules workspace deletion (owner only; confirmName must match the workspace name). */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'requestAccountDeletion',
  method: 'POST',
  path: '/api/v1/account/deletion/request',
  access: 'actions',
  summary: 'Schedules workspace deletion (owner only; confirmName must match the workspace name).',
  schemas: () => ({ body: z.object({ confirmName: z.nullable(z.string().check(z.maxLength(200))) }) }),
  planned: 'issue #13 (workspace lifecycle)',
});
