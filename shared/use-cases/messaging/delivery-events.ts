/**
 * What the providers report after a send (Amazon SES configuration-set events → SNS → functions/email-events):
 * a delivery marks the message `delivered`; a permanent bounce or a complaint marks it `bounced` / `complained`
 * and suppresses the address, so it is never emailed again (SES's own guidance for keeping a sender's reputation);
 * a transient bounce is only noted. An event about a message this service does not know is ignored.
 */
import { findByProviderId, updateCommunicationStatus } from '#db/communications';
import { suppressEmail } from '#db/consent';

/** A provider's report about one sent email. */
export interface EmailEvent {
  provider: string;
  providerMessageId: string;
  type: 'delivery' | 'bounce' | 'complaint' | 'reject' | 'delay';
  /** For bounces: SES `bounceType` (`Permanent`, `Transient`, `Undetermined`). */
  bounceType?: string;
  /** The recipients the event is about. */
  recipients: string[];
  /** A human-readable detail (diagnostic code, feedback type). */
  detail: string | null;
}

/** @returns whether a known message was updated */
export async function recordEmailEvent(e: EmailEvent, at: Date): Promise<boolean> {
  const ref = await findByProviderId(e.provider, e.providerMessageId);
  if (!ref) return false;
  const permanent = e.type === 'bounce' && e.bounceType === 'Permanent';
  if (permanent || e.type === 'complaint') {
    for (const r of e.recipients) await suppressEmail(r, permanent ? 'bounce' : 'complaint', e.detail, ref.orgId, at);
  }
  switch (e.type) {
    case 'delivery':
      return updateCommunicationStatus(ref.orgId, ref.messageId, 'delivered', null, at);
    case 'complaint':
      return updateCommunicationStatus(ref.orgId, ref.messageId, 'complained', e.detail ?? `complaint from ${e.recipients.join(', ')}`, at);
    case 'reject':
      return updateCommunicationStatus(ref.orgId, ref.messageId, 'failed', e.detail ?? 'rejected by the provider', at);
    case 'bounce':
      return permanent
        ? updateCommunicationStatus(ref.orgId, ref.messageId, 'bounced', e.detail ?? `permanent bounce from ${e.recipients.join(', ')}`, at)
        : false;
    case 'delay':
      return false;
  }
}
