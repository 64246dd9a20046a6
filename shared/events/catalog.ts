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

export type EventType = keyof typeof EVENT_TYPES;
