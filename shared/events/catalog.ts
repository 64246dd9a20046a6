/**
 * The event catalog: every event type the outbox carries, its payload (`data` of the delivery envelope, spec
 * "Delivery": thin, ids and a few key fields) and whether webhooks deliver it. The spec's "Events" table is the
 * webhook part (14 types); the rest are internal, for the team's notifications only. Each type is emitted in one
 * place, by a use case (test/unit/event-emitters.test.ts checks it).
 *
 * `outboxPut` (shared/db/outbox.ts) is generic over the type and takes that type's payload, so an emitter cannot
 * build a payload that does not match, and a reader that narrows on `eventType` reads typed fields.
 */

/** `data` of `document.uploaded` and `document.deleted` (`sizeBytes`: bytes, or null before the upload completed). */
export type DocumentEventData = { documentId: string; transactionId: string | null; name: string; documentType: string; sizeBytes: number | null };

/** The payload of each event type. Dates are `YYYY-MM-DD`, times ISO 8601 UTC. */
export interface EventPayloads {
  'contact.created': { contactId: string; name: string; type: string; transactionId: string | null; role: string | null };
  'disclosure.recipient_viewed': { packageId: string; recipientId: string; transactionId: string | null; email: string };
  'document.deleted': DocumentEventData;
  'document.uploaded': DocumentEventData;
  /** `confidence` 0–1; a failed job has 0 and `requiresReview` true. */
  'extraction.completed': { jobId: string; transactionId: string | null; documentId: string; status: 'completed' | 'failed'; confidence: number; requiresReview: boolean };
  'form.submission_received': { submissionId: string; formDefinitionId: string; formPurpose: string; transactionId: string };
  'key_date.completed': { transactionId: string; keyDateType: string; completedAt: string };
  'key_date.updated': { transactionId: string; keyDateType: string; dateValue: string; previousValue: string | null };
  'task.completed': { taskId: string; transactionId: string; title: string; completedAt: string | null };
  'task.created': { taskId: string; transactionId: string; title: string; dueDate: string | null; assigneeUserId: string | null };
  /** `closedAt` ISO time (null only for data written before it was stamped). */
  'transaction.closed': { transactionId: string; status: string; closedAt: string | null };
  'transaction.created': { transactionId: string; address: string; status: string; side: string };
  'transaction.status_changed': { transactionId: string; previousStatus: string; status: string };
  /** Delivered only to `subscriptionId`. */
  'webhook.test': { subscriptionId: string; message: string };
  'task.assigned': { taskId: string; transactionId: string; title: string; dueDate: string | null; assigneeUserId: string; previousAssigneeUserId: string | null };
  /** Redeliveries committed pending (at most 49 per event); fan-out enqueues them (shared/use-cases/redeliver-webhook.ts). */
  'webhook.redelivery_requested': { subscriptionId: string; deliveryIds: string[] };
  /** `channel` of the reply (an inbound reply is `email` or `sms`). */
  'message.received': { transactionId: string; communicationId: string; channel: 'email' | 'sms' | 'in_app'; from: string; fromName: string | null; subject: string | null };
  /** An outbound message recorded `queued`; the send worker (functions/message-send) hands it to the provider. */
  'message.queued': { transactionId: string; communicationId: string; channel: 'email' | 'sms'; scheduledMessageId: string | null };
  /** A service email (disclosure share, invitation, workspace notice) recorded queued; the send worker sends it (shared/db/service-emails.ts). */
  'service_email.queued': { emailId: string; purpose: 'disclosure_share' | 'partner_invitation' | 'workspace_notice' };
  /**
   * A one-time schedule to create (shared/use-cases/schedule-requests.ts): the schedule as the scheduler port takes
   * it, and the record that shows a failure to create it. The outbox relay (functions/webhook-fanout) creates it.
   */
  'schedule.requested': { schedule: ScheduleRequestData; subject: ScheduleSubject };
  /** A one-time schedule to delete, by name; the outbox relay deletes it (a schedule already gone is done). */
  'schedule.cancel_requested': { name: string; subject: ScheduleSubject };
}

/**
 * A schedule as `schedule.requested` carries it (shared/ports/scheduler.ts `OneTimeSchedule`): `at` wall-clock
 * `YYYY-MM-DDTHH:mm:ss` in the IANA `timezone`; `target` one of `scheduled-send`, `workspace-purge`, `workspace-export`.
 */
export interface ScheduleRequestData {
  name: string;
  at: string;
  timezone: string;
  target: 'scheduled-send' | 'workspace-purge' | 'workspace-export';
  payload: Record<string, unknown>;
}

/** What a schedule is for: the record the relay marks when the schedule cannot be created. */
export type ScheduleSubject =
  | { kind: 'scheduled_message'; transactionId: string; scheduledMessageId: string }
  | { kind: 'reminder'; transactionId: string; reminderId: string; generation: number }
  | { kind: 'workspace_deletion'; deletionId: string }
  | { kind: 'workspace_export'; exportId: string };

export type EventType = keyof EventPayloads;

/** One catalog entry: when the event fires, and whether webhooks deliver it (false: notifications only). */
export interface EventTypeEntry {
  readonly description: string;
  readonly webhook: boolean;
}

/** Every event type (the record type makes a type missing here, or one without a payload, fail to compile). */
export const EVENT_CATALOG: { readonly [T in EventType]: EventTypeEntry } = {
  'contact.created': { description: 'A contact is created.', webhook: true },
  'disclosure.recipient_viewed': { description: 'A disclosure-package recipient opens the disclosure.', webhook: true },
  'document.deleted': { description: 'A document is deleted.', webhook: true },
  'document.uploaded': { description: 'A document is uploaded to a transaction.', webhook: true },
  'extraction.completed': { description: 'An extraction job finishes (includes jobId, status, confidence).', webhook: true },
  'form.submission_received': { description: 'A public form submission is received.', webhook: true },
  'key_date.completed': { description: 'A key date is marked complete.', webhook: true },
  'key_date.updated': { description: 'A key date is added or changed on a transaction.', webhook: true },
  'task.completed': { description: 'A task is marked complete.', webhook: true },
  'task.created': { description: 'A task is created.', webhook: true },
  'transaction.closed': { description: 'A transaction is closed.', webhook: true },
  'transaction.created': { description: 'A transaction is created.', webhook: true },
  'transaction.status_changed': { description: "A transaction's status changes.", webhook: true },
  'webhook.test': { description: 'POST /api/v1/webhooks/{id}/test is called.', webhook: true },
  // Not in the spec's catalog: no webhook delivers them and `GET /webhook-events` does not list them.
  'task.assigned': { description: 'An existing task is assigned to a member (POST /tasks/{taskId}/assign).', webhook: false },
  'webhook.redelivery_requested': { description: 'Webhook deliveries are redelivered (POST /webhooks/{id}/redeliver and .../deliveries/{deliveryId}/redeliver).', webhook: false },
  'message.received': { description: 'An inbound email or text reply is threaded to a deal.', webhook: false },
  'message.queued': { description: 'An outbound email or text is recorded queued, for the send worker.', webhook: false },
  'service_email.queued': { description: "An email in the service's own name (a disclosure share, an invitation, a workspace notice) is recorded queued, for the send worker.", webhook: false },
  'schedule.requested': { description: 'A scheduled message, reminder, workspace deletion or export is recorded; the outbox relay creates its one-time schedule.', webhook: false },
  'schedule.cancel_requested': { description: 'A scheduled message or workspace deletion is cancelled, or a reminder moved; the outbox relay deletes the old schedule.', webhook: false },
};

/**
 * The events the send worker (functions/message-send) consumes: its stream mapping's filter (lib/messaging/
 * send-worker.ts) and the local runtime's stand-in (lib/local/message-send.ts) let only these through.
 */
export const SEND_WORKER_EVENTS = ['message.queued', 'service_email.queued'] as const satisfies readonly EventType[];

/** The spec's webhook catalog (spec "Events"): event type → when it fires, for `GET /webhook-events` and subscription validation. */
export const EVENT_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(EVENT_CATALOG)
    .filter(([, e]) => e.webhook)
    .map(([type, e]) => [type, e.description]),
);

/** True for a type of the catalog. */
export const isEventType = (eventType: string): eventType is EventType => Object.hasOwn(EVENT_CATALOG, eventType);

/** True for an event webhooks never deliver (internal, or a type the catalog does not know). */
export const isInternalEvent = (eventType: string): boolean => !isEventType(eventType) || !EVENT_CATALOG[eventType].webhook;
