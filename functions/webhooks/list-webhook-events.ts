/** `GET /api/v1/webhook-events`: the event catalog (spec "Events"). */
import { defineOperation } from '#api/operation';
import { EVENT_TYPES } from '#events/catalog';
import * as z from '#api/zod';

export default defineOperation({
  operationId: 'listWebhookEvents',
  method: 'GET',
  path: '/api/v1/webhook-events',
  access: 'read',
  summary: 'The catalog of event types available to the key.',
  response: () => z.object({ data: z.array(z.object({ eventType: z.string(), description: z.string() })) }),
  handler: async () => ({
    body: { data: Object.entries(EVENT_TYPES).map(([eventType, description]) => ({ eventType, description })) },
  }),
});
