/** `GET /api/v1/usage`: the calling key's call volume, daily breakdown, top operations and error rate (`days`, default 30). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32 } from '#api/params';
import { readUsage } from '#db/usage';
import { Usage } from '#api/responses/meta';

export default defineOperation({
  operationId: 'getUsage',
  method: 'GET',
  path: '/api/v1/usage',
  access: 'read',
  summary: 'Call volume, daily breakdown, top operations and error rate of the calling key.',
  response: () => z.object({ data: Usage, keyId: z.string() }),
  schemas: () => ({ query: z.object({ days: z.optional(int32({ min: 1, max: 90 })) }) }),
  example: { query: { days: '7' } },
  handler: async ({ query }, { principal, now }) => ({
    body: { data: await readUsage(principal, query.days ?? 30, now.getTime()), keyId: principal.keyId },
  }),
});
