/** `GET /api/v1/transactions/{transactionId}/recipients`: deal participants with roles and per-channel availability. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { MESSAGE_CHANNELS } from '#domain/channel-availability';
import { listDealRecipients } from '#use-cases/contacts-recipients';
import { recipientsResponse } from '#api/responses/contacts';

export default defineOperation({
  operationId: 'listTransactionRecipients',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/recipients',
  access: 'read',
  uses: ['phone-numbers'],
  summary: 'Deal participants with roles and email/SMS availability; channel keeps those reachable on it.',
  response: () => recipientsResponse(),
  schemas: () => ({ path: uuidPath('transactionId'), query: z.object({ channel: z.optional(z.enum(MESSAGE_CHANNELS)) }) }),
  example: { query: { channel: 'sms' } },
  handler: async ({ path, query }, { principal }) => ({ body: await listDealRecipients(principal.orgId, path.transactionId, query.channel) }),
});
