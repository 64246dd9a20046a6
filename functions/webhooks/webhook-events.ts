/** `GET /api/v1/webhook-events`: the event catalog (spec "Events"). */
import type { OperationHandler } from '#http/context';
import { EVENT_TYPES } from '#events/catalog';

export const listWebhookEvents: OperationHandler = async () => ({
  body: { data: Object.entries(EVENT_TYPES).map(([eventType, description]) => ({ eventType, description })) },
});
