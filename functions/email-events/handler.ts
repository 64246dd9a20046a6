/**
 * Amazon SES configuration-set events (event destination: SNS) → delivery, bounce, complaint and reject reports
 * recorded on the message, and permanent bounces and complaints suppressing the address
 * (shared/use-cases/messaging/delivery-events.ts). The SNS message is SES's event JSON (`eventType`, `mail`,
 * `bounce`, `complaint`, …; SES Developer Guide, "Contents of event data that Amazon SES publishes to Amazon SNS").
 */
import type { SNSEvent } from 'aws-lambda';
import { clockNow } from '#ports/clock';
import { recordEmailEvent, type EmailEvent } from '#use-cases/messaging/delivery-events';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { metricSet, observedHandler } from '#observability/powertools';

/** The fields of an SES event (or a legacy identity notification) that this worker reads. */
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

/** The worker's metrics (dimension `service` only). */
export const EMAIL_EVENT_METRICS = metricSet(['EmailEvents', 'EmailBounces', 'EmailComplaints']);

/** Metrics (Count): `EmailEvents` recorded, `EmailBounces` (permanent) and `EmailComplaints`. */
export const handler = observedHandler(async (event: SNSEvent): Promise<number> => {
  let recorded = 0;
  let bounces = 0;
  let complaints = 0;
  for (const record of event.Records) {
    const e = toEmailEvent(JSON.parse(record.Sns.Message) as SesEvent);
    if (!e) continue;
    if (e.type === 'bounce' && e.bounceType === 'Permanent') bounces++;
    if (e.type === 'complaint') complaints++;
    if (await recordEmailEvent(e, clockNow())) recorded++;
  }
  EMAIL_EVENT_METRICS.add('EmailEvents', MetricUnit.Count, recorded);
  EMAIL_EVENT_METRICS.add('EmailBounces', MetricUnit.Count, bounces);
  EMAIL_EVENT_METRICS.add('EmailComplaints', MetricUnit.Count, complaints);
  return recorded;
});
