/**
 * Response schemas of messaging (spec "Messaging": email and SMS unified into one per-deal thread): messages as
 * shared/db/communications.ts `messageView` shows them, SMS conversations (`conversationView`), scheduled emails
 * (shared/db/scheduled-messages.ts `scheduledMessageView`), document shares, drafts and the communication-log
 * report (shared/use-cases/messaging/). The spec shows none of these shapes: they are this service's own design.
 */
import * as z from '#api/zod';
import { DRAFT_KINDS } from '#domain/draft-wording';
import { day, id, nullableString, resource, timestamp } from '#api/responses/common';

const party = () => z.object({ address: z.string(), name: nullableString(), contactId: z.nullable(id()) });

export const Message = resource(
  'Message',
  'One message of a deal\'s merged thread, whatever its channel; `bodyText` is the plain text (derived from the HTML of an HTML-only email).',
  z.object({
    id: id(),
    transactionId: id(),
    channel: z.enum(['email', 'sms', 'in_app']),
    direction: z.enum(['outbound', 'inbound']),
    kind: z.enum([
      'email',
      'agent_email',
      'agent_followup_email',
      'client_update_email',
      'document_request_email',
      'scheduled_email',
      'reminder_email',
      'sms',
      'document_share_sms',
      'reply',
      'auto_reply',
    ]),
    /** Outbound: queued → sent → delivered, or bounced / complained / failed; blocked before sending; inbound: received. */
    status: z.enum(['queued', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'blocked', 'received']),
    statusDetail: nullableString(),
    /** The SMS conversation; null for email. */
    threadId: z.nullable(id()),
    from: party(),
    to: z.array(party()),
    cc: z.array(party()),
    bcc: z.array(party()),
    subject: nullableString(),
    bodyText: z.string(),
    bodyHtml: nullableString(),
    /** RFC 5322 Message-ID (`<…>`) of an email. */
    emailMessageId: nullableString(),
    inReplyTo: nullableString(),
    documents: z.array(z.object({ documentId: id(), fileName: z.string() })),
    recipientRole: nullableString(),
    /** What the sender said the message is for (intent, topic, tone, focus, audience, documentTypes; a share's link expiry). */
    context: z.nullable(z.record(z.string(), z.unknown())),
    scheduledMessageId: z.nullable(id()),
    contactId: z.nullable(id()),
    sentBy: nullableString(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

export const Conversation = resource(
  'Conversation',
  'An SMS conversation of a deal with one phone number (E.164), its latest message and message count.',
  z.object({
    id: id(),
    transactionId: id(),
    contactId: z.nullable(id()),
    name: nullableString(),
    lastMessageAt: timestamp(),
    lastMessagePreview: z.string(),
    messageCount: z.int(),
    createdAt: timestamp(),
    /** E.164, e.g. `+15125550143`. */
    phoneNumber: z.string(),
  }),
);

/** `GET /conversations/{threadId}/messages`: the newest messages (oldest first) and the conversation with its opt-out state. */
export const conversationMessagesResponse = () =>
  z.object({ data: z.array(Message), conversation: z.object({ ...Conversation.def.shape, optedOut: z.boolean() }) });

/** `{data: {message, conversation}}`: a text sent (first text of a conversation, or a reply). */
export const sentTextResponse = () => z.object({ data: z.object({ message: Message, conversation: Conversation }) });

/** `{data: {message, conversation, link}}`: a document shared by SMS link (the link's token is never returned). */
export const documentShareResponse = () =>
  z.object({
    data: z.object({
      message: Message,
      conversation: Conversation,
      link: z.object({ documentId: id(), fileName: z.string(), expiresAt: timestamp(), expirationHours: z.int() }),
    }),
  });

export const ScheduledMessage = resource(
  'ScheduledMessage',
  'An email scheduled for a wall-clock time in an IANA time zone (`scheduledAt`, `scheduledTimezone`; `sendAt` is the UTC instant), with the email as requested.',
  z.object({
    id: id(),
    transactionId: id(),
    status: z.enum(['pending', 'sending', 'sent', 'cancelled', 'failed']),
    sendAt: timestamp(),
    scheduledTimezone: z.string(),
    createdBy: nullableString(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    /** The message it became, once sent. */
    sentMessageId: z.nullable(id()),
    error: nullableString(),
    /** Local wall-clock time `YYYY-MM-DDTHH:mm:ss` as requested. */
    scheduledAt: z.string(),
    toEmail: nullableString(),
    ccAddresses: nullableString(),
    bccAddresses: nullableString(),
    subject: nullableString(),
    body: nullableString(),
    htmlBody: nullableString(),
    fromAccountId: nullableString(),
    documentIds: z.array(id()),
    /** documentId → file name to attach it as. */
    documentFileNames: z.record(z.string(), z.string()),
  }),
);

export const MessageDraft = resource(
  'MessageDraft',
  'A drafted email and SMS wording for an intent, from the deal\'s facts; never sent (`sent: false`).',
  z.object({
    subject: z.string(),
    bodyText: z.string(),
    bodyHtml: z.string(),
    smsText: z.string(),
    detectedIntent: z.enum(DRAFT_KINDS),
    generator: z.literal('rules'),
    sent: z.literal(false),
    facts: z.object({
      address: z.string(),
      status: z.string(),
      closingDate: z.nullable(day()),
      upcomingKeyDates: z.array(z.object({ label: z.string(), date: day() })),
    }),
    notes: z.array(z.string()),
  }),
);

const logRange = { from: z.nullable(timestamp()), to: z.nullable(timestamp()), generatedAt: timestamp(), messageCount: z.int() };

export const CommunicationLog = resource(
  'CommunicationLog',
  '`format=json`: the deal\'s messages over `from`–`to` (inclusive; null bounds are open), inline.',
  z.object({
    format: z.literal('json'),
    transaction: z.object({ id: id(), address: z.string(), status: z.string() }),
    ...logRange,
    messages: z.array(Message),
  }),
);

export const CommunicationLogFile = resource(
  'CommunicationLogFile',
  '`format=pdf` or `zip`: the stored report (`application/pdf`, or `application/zip` holding the PDF, the JSON log and the documents the messages carried), downloaded with `GET url` until `expiresAt` (15 minutes). A Lambda response holds at most 6 MB, so the file itself is never in this response.',
  z.object({
    format: z.enum(['pdf', 'zip']),
    fileName: z.string(),
    /** The downloaded file's media type. */
    contentType: z.enum(['application/pdf', 'application/zip']),
    sizeBytes: z.int(),
    url: z.string(),
    method: z.literal('GET'),
    expiresAt: timestamp(),
    documentCount: z.int(),
    ...logRange,
  }),
);

/** `GET .../reports/communication-log`: the JSON log inline, or a download link to the PDF / ZIP, by `format`. */
export const communicationLogResponse = () => z.object({ data: z.discriminatedUnion('format', [CommunicationLog, CommunicationLogFile]) });

/** `GET /transactions/{id}/communications`: the newest `limit` messages, oldest first; `hasMore` when older ones exist. */
export const transactionCommunicationsResponse = () => z.object({ data: z.array(Message), hasMore: z.boolean() });
