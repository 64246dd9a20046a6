/**
 * Amazon SES configuration-set events (event destination: SNS; the worker is functions/email-events/handler.ts) →
 * delivery, bounce, complaint, reject and delay reports recorded on the message, permanent bounces and complaints
 * suppressing the address (shared/use-cases/messaging/delivery-events.ts). The SNS message is SES's event JSON
 * (`eventType`, `mail`, `bounce`, `complaint`, …; SES Developer Guide, "Contents of event data that Amazon SES
 * publishes to Amazon SNS").
 *
 * Metrics (Count, every invocation, 0 when none): `EmailEvents` recorded on a known message, `EmailBounces`
 * (permanent) and `EmailComplaints`.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { recordEmailEvent, type EmailEvent } from '#use-cases/messaging/delivery-events';
import { metricSet } from '#observability/powertools';

/** The fields of an SES event (or a legacy identity notification) that this service reads. */
export interface SesEvent {
  eventType?: string;
  notificationType?: string;
  mail?: { messageId?: string; destination?: string[] };
  bounce?: { bounceType: string; bouncedRecipients: { emailAddress: string; diagnosticCode?: string }[] };
  complaint?: { complainedRecipients: { emailAddress: string }[]; complaintFeedbackType?: string };
  delivery?: { recipients: string[] };
  reject?: { reason: string };
  deliveryDelay?: { delayType?: string; delayedRecipients?: { emailAddress: string }[] };
}

/**
 * The event as this service records it, or undefined for a type it does not track (sends, opens, clicks, rendering
 * failures, subscriptions) or one without a message id (nothing to attach it to).
 */
export function toEmailEvent(e: SesEvent): EmailEvent | undefined {
  const type = (e.eventType ?? e.notificationType ?? '').toLowerCase();
  if (!e.mail?.messageId) return undefined;
  const base = { provider: 'ses', providerMessageId: e.mail.messageId };
  switch (type) {
    case 'delivery':
      return { ...base, type: 'delivery', recipients: e.delivery?.recipients ?? e.mail.destination ?? [], detail: null };
    case 'bounce':
      return {
        ...base,
        type: 'bounce',
        bounceType: e.bounce?.bounceType,
        recipients: e.bounce?.bouncedRecipients.map((r) => r.emailAddress) ?? [],
        detail: e.bounce?.bouncedRecipients.map((r) => r.diagnosticCode).filter(Boolean).join('; ') || null,
      };
    case 'complaint':
      return { ...base, type: 'complaint', recipients: e.complaint?.complainedRecipients.map((r) => r.emailAddress) ?? [], detail: e.complaint?.complaintFeedbackType ?? null };
    case 'reject':
      return { ...base, type: 'reject', recipients: e.mail.destination ?? [], detail: e.reject?.reason ?? null };
    case 'deliverydelay':
      return {
        ...base,
        type: 'delay',
        recipients: e.deliveryDelay?.delayedRecipients?.map((r) => r.emailAddress) ?? e.mail.destination ?? [],
        detail: e.deliveryDelay?.delayType ?? null,
      };
    default:
      return undefined;
  }
}

/** The SES event worker's metrics (Count; dimension `service` only). */
export const EMAIL_EVENT_METRICS = metricSet(['EmailEvents', 'EmailBounces', 'EmailComplaints']);

/**
 * Records a batch of SES events, in order, and counts them.
 * @param now the clock, read once per event
 * @returns how many events were recorded on a known message
 */
export async function recordSesEvents(events: readonly SesEvent[], now: () => Date): Promise<number> {
  let recorded = 0;
  let bounces = 0;
  let complaints = 0;
  for (const ses of events) {
    const e = toEmailEvent(ses);
    if (!e) continue;
    if (e.type === 'bounce' && e.bounceType === 'Permanent') bounces++;
    if (e.type === 'complaint') complaints++;
    if (await recordEmailEvent(e, now())) recorded++;
  }
  EMAIL_EVENT_METRICS.add('EmailEvents', MetricUnit.Count, recorded);
  EMAIL_EVENT_METRICS.add('EmailBounces', MetricUnit.Count, bounces);
  EMAIL_EVENT_METRICS.add('EmailComplaints', MetricUnit.Count, complaints);
  return recorded;
}
