/**
 * Received emails stored in the inbound-mail bucket (an SES receipt rule's S3 action writes `inbound/<SES id>`;
 * locally the local SMTP server does; the worker is functions/inbound-email/handler.ts) → each is read and threaded
 * into its deal (shared/use-cases/messaging/receive-email.ts). The envelope recipients come from the headers the
 * receiver adds (`X-Original-To`, `Delivered-To`, the topmost `Received`), besides To/Cc.
 *
 * Metrics (Count, every invocation, 0 when none): `InboundEmailsThreaded`, `InboundEmailsUnrouted`,
 * `InboundEmailsDuplicate`, the batch's emails of each outcome (outcomes are names, not a dimension, so a batch
 * counts each under its own).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { getObjectBytes } from '#ports/blob-store';
import { inboundMailDomain } from '#ports/mail-identity';
import { receiveEmail, type InboundEmailOutcome } from '#use-cases/messaging/receive-email';
import { logger, metricSet, type MetricNameOf } from '#observability/powertools';

/**
 * Recipients named by the receiving server's envelope headers of a raw message (the header section only, folded
 * lines unfolded as RFC 5322 §2.2.3 says): `X-Original-To`, `Delivered-To`, `X-Envelope-To` (the local SMTP server
 * writes `X-Original-To`), and the `for` clause of the topmost `Received` header, the one the receiving server added
 * (RFC 5321 §4.4; SES's names the recipient). They find a reply address that was only Bcc'd.
 * @returns bare addresses, in header order
 */
export function envelopeRecipientsOf(raw: Buffer): string[] {
  const head = raw.subarray(0, Math.min(raw.length, 64 * 1024)).toString('utf8').split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const bare = (s: string) => s.trim().replace(/^<|>$/g, '');
  const found: string[] = [];
  for (const m of head.matchAll(/^(?:X-Original-To|Delivered-To|X-Envelope-To):\s*(.+)$/gim)) found.push(...m[1].split(',').map(bare));
  const received = /^Received:(.*)$/im.exec(head)?.[1];
  const forClause = received && /\bfor\s+(<[^>\s]+>|[^\s;<>]+@[^\s;<>]+)/i.exec(received);
  if (forClause) found.push(bare(forClause[1]));
  return found.filter(Boolean);
}

/** The inbound-email worker's metrics (Count; dimension `service` only): one per outcome. */
export const INBOUND_EMAIL_METRICS = metricSet(['InboundEmailsThreaded', 'InboundEmailsUnrouted', 'InboundEmailsDuplicate']);

/** The metric each outcome counts under. */
const OUTCOME_METRIC: Readonly<Record<InboundEmailOutcome['outcome'], MetricNameOf<typeof INBOUND_EMAIL_METRICS>>> = {
  threaded: 'InboundEmailsThreaded',
  unrouted: 'InboundEmailsUnrouted',
  duplicate: 'InboundEmailsDuplicate',
};

/**
 * Threads the stored emails at `keys` (object keys of `DOCUMENTS_BUCKET`, which for this worker names the
 * inbound-mail bucket), in order, and counts the outcomes.
 * @param now the clock, read once per email
 * @throws what reading or threading an email threw (the emails before it are threaded and stay so: a retry finds
 *   them `duplicate`)
 */
export async function receiveStoredEmails(keys: readonly string[], now: () => Date): Promise<InboundEmailOutcome[]> {
  const outcomes: InboundEmailOutcome[] = [];
  for (const key of keys) {
    const raw = Buffer.from(await getObjectBytes(key));
    const result = await receiveEmail(raw, envelopeRecipientsOf(raw), inboundMailDomain(), now());
    logger.info('inbound email', { key, ...result });
    outcomes.push(result);
  }
  for (const outcome of Object.keys(OUTCOME_METRIC) as InboundEmailOutcome['outcome'][]) {
    INBOUND_EMAIL_METRICS.add(OUTCOME_METRIC[outcome], MetricUnit.Count, outcomes.filter((o) => o.outcome === outcome).length);
  }
  return outcomes;
}
