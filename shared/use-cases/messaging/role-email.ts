/**
 * The four emails to one deal party (spec "Messaging": `emails/agent`, `agent-followup`, `client-update`,
 * `document-request`). The recipient is `recipientContactId`, which must be linked to the deal, and, where the
 * request names a `recipientRole`, linked with exactly that role (roles match exactly; an unrecognized role reaches
 * nobody: 422). The caller writes the subject and HTML; the service adds what the operation promises (the requested
 * document types) and records what the email is for (`context`: intent, topic, tone, focus, audience, ...).
 */
import { getDeal } from '#db/transactions';
import type { Communication, MessageKind } from '#db/communications';
import type { Actor } from '#events/outbox';
import { InvalidInput } from '#domain/errors';
import { escapeHtml } from '#domain/html-text';
import { linkedRecipient } from '#use-cases/messaging/deal-parties';
import { queueDealEmail } from '#use-cases/messaging/send-email';

export interface RoleEmailInput {
  kind: Extract<MessageKind, 'agent_email' | 'agent_followup_email' | 'client_update_email' | 'document_request_email'>;
  recipientContactId: string | null;
  /** The role the contact must hold; `undefined` when the operation takes none (client update: any linked role). */
  recipientRole?: string | null;
  subject: string | null;
  bodyHtml: string | null;
  bodyPlainText?: string | null;
  /** Stored with the message (null and empty values are dropped). */
  context: Record<string, unknown>;
  /** Deal documents to attach, and the request field that names them. */
  documentIds?: string[];
  documentsField?: string;
  /** Text and HTML appended to the body (the document request's list). */
  appendix?: { text: string; html: string };
}

/** The list a document request adds to its email: one line per requested document type. */
export function documentRequestAppendix(documentTypes: string[]): { text: string; html: string } {
  return {
    text: `Requested documents:\n${documentTypes.map((t) => `- ${t}`).join('\n')}`,
    html: `<p><strong>Requested documents:</strong></p>\n<ul>\n${documentTypes.map((t) => `<li>${escapeHtml(t)}</li>`).join('\n')}\n</ul>`,
  };
}

/**
 * Sends the email to the deal's contact.
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for a missing field, a contact not linked to the deal (or with another role, or no email)
 * @throws Conflict when the contact's address is suppressed
 */
export async function sendRoleEmail(actor: Actor, transactionId: string, input: RoleEmailInput, now: Date): Promise<Communication> {
  const deal = await getDeal(actor.orgId, transactionId);
  const errors: Record<string, string> = {};
  if (!input.subject?.trim()) errors.subject = 'is required';
  if (!input.bodyHtml?.trim()) errors.bodyHtml = 'is required';
  if (!input.recipientContactId) errors.recipientContactId = 'is required';
  if (input.recipientRole !== undefined && !input.recipientRole?.trim()) errors.recipientRole = 'is required: a message addressed to no role reaches nobody';
  if (Object.keys(errors).length) throw new InvalidInput(errors);
  const role = input.recipientRole ? { value: input.recipientRole, field: 'recipientRole' } : undefined;
  const r = await linkedRecipient(actor.orgId, deal, input.recipientContactId!, 'recipientContactId', role);
  if (!r.email) throw new InvalidInput({ recipientContactId: 'has no email address' });
  const { appendix } = input;
  const context = Object.fromEntries(Object.entries(input.context).filter(([, v]) => v !== null && v !== undefined && v !== ''));
  return queueDealEmail(
    actor,
    {
      transactionId: deal.id,
      kind: input.kind,
      to: [{ address: r.email, name: r.name, contactId: r.contactId }],
      subject: input.subject!,
      // Without a plain-text body the text part is derived from the HTML (appendix included).
      text: input.bodyPlainText?.trim() ? [input.bodyPlainText.trim(), appendix?.text].filter(Boolean).join('\n\n') : '',
      html: [input.bodyHtml!, appendix?.html].filter(Boolean).join('\n'),
      recipientRole: r.role,
      contactId: r.contactId,
      context: Object.keys(context).length ? context : null,
      documentIds: input.documentIds,
      documentsField: input.documentsField,
    },
    now,
  );
}
