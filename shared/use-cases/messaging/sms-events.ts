/**
 * AWS End User Messaging SMS delivery receipts (configuration-set event destination → SNS → functions/sms-events) →
 * the text's status on its thread: `delivered` or `failed`. The SNS message is the service's event JSON
 * (`eventType`, `isFinal`, `messageId`, `messageStatus`, `messageStatusDescription`, …; AWS End User Messaging SMS
 * User Guide, "Example SMS event data" and "Event types for SMS, MMS, and voice").
 *
 * - `TEXT_DELIVERED` and `TEXT_SUCCESSFUL` (which carriers use interchangeably) mark the text `delivered`;
 * - a final failure (`isFinal`: blocked, spam, invalid number or body, unreachable, TTL expired, carrier blocked,
 *   protect blocked, unknown) marks it `failed`, with the service's description as the detail;
 * - intermediate events (`TEXT_QUEUED`, `TEXT_PENDING`, a failure that is not final yet) are not recorded.
 * A receipt about a text this service did not send (no provider reference) is ignored. A status never overrides a
 * bounce or complaint (shared/db/communications.ts `updateCommunicationStatus`).
 *
 * Metrics (Count, every invocation, 0 when none): `TextsDelivered`, `TextsFailed` (receipts recorded on a known text).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { findByProviderId, updateCommunicationStatus } from '#db/communications';
import { metricSet } from '#observability/powertools';

/** The fields of an End User Messaging SMS event that this service reads. */
export interface SmsEvent {
  eventType?: string;
  isFinal?: boolean;
  messageId?: string;
  messageStatus?: string;
  messageStatusDescription?: string;
}

/** What a receipt records on a text. */
export interface TextReceipt {
  providerMessageId: string;
  status: 'delivered' | 'failed';
  /** Null for a delivery; for a failure, the service's description (or its status). */
  detail: string | null;
}

/** Provider name of texts sent through End User Messaging SMS (shared/ports/sms/aws.ts). */
export const SMS_PROVIDER = 'sms';

const DELIVERED: ReadonlySet<string> = new Set(['TEXT_DELIVERED', 'TEXT_SUCCESSFUL']);
const IN_FLIGHT: ReadonlySet<string> = new Set(['TEXT_QUEUED', 'TEXT_PENDING', 'TEXT_SENT']);

/** The receipt an event gives, or undefined when it records nothing (intermediate, not a text, no message id). */
export function toTextReceipt(e: SmsEvent): TextReceipt | undefined {
  const type = e.eventType ?? '';
  if (!e.messageId || !type.startsWith('TEXT_')) return undefined;
  if (DELIVERED.has(type)) return { providerMessageId: e.messageId, status: 'delivered', detail: null };
  if (IN_FLIGHT.has(type) || e.isFinal !== true) return undefined;
  return { providerMessageId: e.messageId, status: 'failed', detail: e.messageStatusDescription || e.messageStatus || type };
}

/** The SMS event worker's metrics (Count; dimension `service` only). */
export const SMS_EVENT_METRICS = metricSet(['TextsDelivered', 'TextsFailed']);

/**
 * Records a batch of SMS events, in order, and counts them.
 * @param now the clock, read once per recorded event
 * @returns how many receipts were recorded on a known text
 */
export async function recordSmsEvents(events: readonly SmsEvent[], now: () => Date): Promise<number> {
  const counts = { delivered: 0, failed: 0 };
  for (const e of events) {
    const r = toTextReceipt(e);
    if (!r) continue;
    const ref = await findByProviderId(SMS_PROVIDER, r.providerMessageId);
    if (ref && (await updateCommunicationStatus(ref.orgId, ref.messageId, r.status, r.detail, now()))) counts[r.status]++;
  }
  SMS_EVENT_METRICS.add('TextsDelivered', MetricUnit.Count, counts.delivered);
  SMS_EVENT_METRICS.add('TextsFailed', MetricUnit.Count, counts.failed);
  return counts.delivered + counts.failed;
}
