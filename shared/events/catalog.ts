/** The webhook event catalog (spec "Events"): the 14 event types and when each fires. */
export const EVENT_TYPES = {
  'contact.created': 'A contact is created.',
  'disclosure.recipient_viewed': 'A disclosure-package recipient opens the disclosure.',
  'document.deleted': 'A document is deleted.',
  'document.uploaded': 'A document is uploaded to a transaction.',
  'extraction.completed': 'An extraction job finishes (includes jobId, status, confidence).',
  'form.submission_received': 'A public form submission is received.',
  'key_date.completed': 'A key date is marked complete.',
  'key_date.updated': 'A key date is added or changed on a transaction.',
  'task.completed': 'A task is marked complete.',
  'task.created': 'A task is created.',
  'transaction.closed': 'A transaction is closed.',
  'transaction.created': 'A transaction is created.',
  'transaction.status_changed': "A transaction's status changes.",
  'webhook.test': 'POST /api/v1/webhooks/{id}/test is called.',
} as const;

/**
 * Events the outbox carries for the team's notifications only: not in the spec's catalog, so no webhook delivers
 * them and `GET /webhook-events` does not list them (fan-out gives them no subscription, even one to `*`).
 */
export const INTERNAL_EVENT_TYPES = {
  'task.assigned': 'An existing task is assigned to a member (POST /tasks/{taskId}/assign).',
  'message.received': 'An inbound email or text reply is threaded to a deal.',
} as const;

export type WebhookEventType = keyof typeof EVENT_TYPES;
export type InternalEventType = keyof typeof INTERNAL_EVENT_TYPES;
export type EventType = WebhookEventType | InternalEventType;

/** True for an event webhooks never deliver. */
export const isInternalEvent = (eventType: string): eventType is InternalEventType => Object.hasOwn(INTERNAL_EVENT_TYPES, eventType);
