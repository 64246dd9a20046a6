/**
 * Status summaries (spec "Transactions": `POST .../status-summary`, draft scope): a summary of where the deal stands,
 * written for one audience (client, agent, lender…), saved on the deal; one per audience.
 */
import { saveStatusSummary, type StatusSummary } from '#db/status-summaries';
import { getTransactionHead } from '#db/transactions';
import type { Actor } from '#events/outbox';
import { InvalidInput } from '#domain/errors';

export interface StatusSummaryInput {
  audience?: string | null;
  subject?: string | null;
  bodyMarkdown?: string | null;
  keyPointBullets?: string[] | null;
}

/**
 * Saves the summary for its audience (replacing that audience's previous one).
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput when the audience is missing, or there is neither a body nor a key point
 */
export async function saveDealStatusSummary(actor: Actor, transactionId: string, input: StatusSummaryInput, now: Date): Promise<StatusSummary> {
  const deal = await getTransactionHead(actor.orgId, transactionId);
  const audience = input.audience?.trim();
  const bullets = (input.keyPointBullets ?? []).map((b) => b.trim()).filter(Boolean);
  const body = input.bodyMarkdown?.trim() ? input.bodyMarkdown : null;
  const errors: Record<string, string> = {};
  if (!audience) errors.audience = 'is required: a summary is saved per audience (e.g. client, listing agent)';
  if (!body && !bullets.length) errors.bodyMarkdown = 'give bodyMarkdown or keyPointBullets: an empty summary is not saved';
  if (Object.keys(errors).length) throw new InvalidInput(errors);
  return saveStatusSummary(actor.orgId, {
    transactionId: deal.id,
    audience: audience!,
    subject: input.subject?.trim() || null,
    bodyMarkdown: body,
    keyPointBullets: bullets,
    updatedAt: now.toISOString(),
    updatedBy: actor.userId,
  });
}
