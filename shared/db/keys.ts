/**
 * Key builders of the single table. Every organization-owned partition key starts with `ORG#<orgId>`, so a
 * lookup with another organization's id finds nothing (tenant isolation by construction).
 */
export const orgPk = (orgId: string) => `ORG#${orgId}`;
export const txnPk = (orgId: string, transactionId: string) => `ORG#${orgId}#TXN#${transactionId}`;
export const taskPk = (orgId: string, taskId: string) => `ORG#${orgId}#TASK#${taskId}`;
export const apiKeyPk = (hash: string) => `APIKEY#${hash}`;
export const idempotencyPk = (orgId: string, keyHash: string) => `ORG#${orgId}#IDEM#${keyHash}`;
export const usagePk = (orgId: string, keyId: string) => `ORG#${orgId}#USAGE#${keyId}`;
export const eventPk = (orgId: string, eventId: string) => `ORG#${orgId}#EVENT#${eventId}`;
export const proposalPk = (orgId: string, proposalId: string) => `ORG#${orgId}#PROPOSAL#${proposalId}`;

/** A deal's communications partition: messages, plus the reply-address and SMS-thread pointers (shared/db/communications.ts). */
export const commsPk = (orgId: string, transactionId: string) => `${txnPk(orgId, transactionId)}#COMMS`;
/** Reference item locating a message in its deal's communications partition (status updates, replies). */
export const messageRefPk = (orgId: string, messageId: string) => `ORG#${orgId}#MSG#${messageId}`;
/** A service email queued for the send worker (shared/db/service-emails.ts). */
export const serviceEmailPk = (orgId: string, emailId: string) => `ORG#${orgId}#SVCMAIL#${emailId}`;
/** An SMS conversation (shared/db/conversations.ts). */
export const threadPk = (orgId: string, threadId: string) => `ORG#${orgId}#THREAD#${threadId}`;
/** A contact (shared/db/contacts.ts). */
export const contactPk = (orgId: string, contactId: string) => `ORG#${orgId}#CONTACT#${contactId}`;
/** The claim of an email address by one contact; the address is lower-cased. */
export const contactEmailPk = (orgId: string, email: string) => `ORG#${orgId}#CONTACTEMAIL#${email.toLowerCase()}`;
/** A document (shared/db/documents.ts). */
export const documentPk = (orgId: string, documentId: string) => `ORG#${orgId}#DOC#${documentId}`;
/** An extraction job (shared/db/extraction-jobs.ts). */
export const jobPk = (orgId: string, jobId: string) => `ORG#${orgId}#JOB#${jobId}`;
/** A disclosure package with its recipients and activity (shared/db/disclosures.ts). */
export const disclosurePk = (orgId: string, packageId: string) => `ORG#${orgId}#DISC#${packageId}`;
/** A public form submission (shared/db/form-submissions.ts). */
export const formSubmissionPk = (orgId: string, submissionId: string) => `ORG#${orgId}#FORMSUB#${submissionId}`;
/** The organization's email templates and their slugs (shared/db/email-templates.ts). */
export const emailTemplatesPk = (orgId: string) => `ORG#${orgId}#EMAILTPL`;
/** A scheduled message (shared/db/scheduled-messages.ts). */
export const scheduledMessagePk = (orgId: string, messageId: string) => `ORG#${orgId}#SCHEDMSG#${messageId}`;
/** The id in a {@link scheduledMessagePk} value, else undefined (the workspace purge finds schedules to delete). */
export const scheduledMessageIdOfPk = (pk: string): string | undefined => /^ORG#[^#]+#SCHEDMSG#([^#]+)$/.exec(pk)?.[1];
/** A webhook subscription's deliveries and attempts (shared/db/webhook-deliveries.ts). */
export const webhookPk = (orgId: string, subscriptionId: string) => `ORG#${orgId}#WEBHOOK#${subscriptionId}`;
/** A member's in-app notifications (shared/db/notifications.ts). */
export const notificationsPk = (orgId: string, userId: string) => `ORG#${orgId}#USER#${userId}#NOTIFS`;
/** A member's devices registered for push (shared/db/notifications.ts). */
export const devicesPk = (orgId: string, userId: string) => `ORG#${orgId}#USER#${userId}#DEVICES`;
/** A partner (shared/db/partners.ts); partners are not organizations. */
export const partnerPk = (partnerId: string) => `PARTNER#${partnerId}`;

/** OAuth 2.1 authorization-server items (shared/db/oauth.ts). Codes and tokens are keyed by their SHA-256. */
export const oauthPk = {
  client: (clientId: string) => `OAUTHCLIENT#${clientId}`,
  login: (sessionHash: string) => `OAUTHLOGIN#${sessionHash}`,
  code: (codeHash: string) => `OAUTHCODE#${codeHash}`,
  grant: (grantId: string) => `OAUTHGRANT#${grantId}`,
  refresh: (tokenHash: string) => `OAUTHREFRESH#${tokenHash}`,
  /** The public key that signs access tokens, by its `kid` (shared/db/signing-keys.ts). */
  signingKey: (kid: string) => `OAUTHKEY#${kid}`,
};

/**
 * The search-token partition of a deal or contact (shared/db/search-index.ts): one item per indexed prefix,
 * `SK = Q#<prefix>`, so the item's tokens are read and replaced with one `Query`.
 */
export const searchTokensPk = (ownerPk: string) => `${ownerPk}#SEARCH`;

/** GSI1 partitions (cross-deal lists). */
export const gsi1 = {
  proposals: (orgId: string) => `ORG#${orgId}#PROPOSALS`,
  transactions: (orgId: string) => `ORG#${orgId}#TXNS`,
  keyDates: (orgId: string) => `ORG#${orgId}#KEYDATES`,
  openTasks: (orgId: string) => `ORG#${orgId}#OPENTASKS`,
  apiKeys: (orgId: string) => `ORG#${orgId}#APIKEYS`,
  /** Every OAuth grant of one user to one client (refresh-token reuse revokes them all, RFC 9700 §4.14). */
  oauthGrants: (userId: string, clientId: string) => `OAUTHGRANTS#${userId}#${clientId}`,
  /** Organizations provisioned by one partner (shared/db/partners.ts). */
  partnerOrgs: (partnerId: string) => `PARTNER#${partnerId}#ORGS`,
  /** The organization's contacts by name. */
  contacts: (orgId: string) => `ORG#${orgId}#CONTACTS`,
  /** The deals one contact is linked to. */
  contactDeals: (orgId: string, contactId: string) => `ORG#${orgId}#CONTACT#${contactId}#DEALS`,
  /** A deal's documents in display order. */
  dealDocuments: (orgId: string, transactionId: string) => `${txnPk(orgId, transactionId)}#DOCS`,
  /** A deal's disclosure packages. */
  dealDisclosures: (orgId: string, transactionId: string) => `${txnPk(orgId, transactionId)}#DISCS`,
  /** A deal's pending scheduled messages (pending or being sent). */
  dealScheduledMessages: (orgId: string, transactionId: string) => `${txnPk(orgId, transactionId)}#SCHEDULED`,
  /** A deal's scheduled messages that ended `sent`, `cancelled` or `failed` (their history, one partition each). */
  dealScheduledMessagesEnded: (orgId: string, transactionId: string, status: string) => `${txnPk(orgId, transactionId)}#SCHEDULED#${status}`,
  /** The organization's form submissions, newest first. */
  formSubmissions: (orgId: string) => `ORG#${orgId}#FORMSUBS`,
  /** The organization's SMS conversations by latest activity. */
  threads: (orgId: string) => `ORG#${orgId}#THREADS`,
  /** The messages of one SMS conversation (the same value as the conversation's {@link threadPk}). */
  threadMessages: (orgId: string, threadId: string) => threadPk(orgId, threadId),
  /** Deals with an address word starting with `prefix` (a normalised prefix, shared/domain/search-tokens.ts), newest first. */
  dealSearch: (orgId: string, prefix: string) => `ORG#${orgId}#DEALQ#${prefix}`,
  /** Contacts with a word (name, email, company, phone digits) starting with `prefix`, by name. */
  contactSearch: (orgId: string, prefix: string) => `ORG#${orgId}#CONTACTQ#${prefix}`,
};

/** GSI2 partitions. */
export const gsi2 = {
  transactionsByStatus: (orgId: string, status: string) => `ORG#${orgId}#TXNSTATUS#${status.toLowerCase()}`,
  /** Memberships of one email address across organizations (sign-in of the OAuth consent step). */
  userByEmail: (email: string) => `USEREMAIL#${email.trim().toLowerCase()}`,
  /** The messages involving one contact. */
  contactComms: (orgId: string, contactId: string) => `ORG#${orgId}#CONTACT#${contactId}#COMMS`,
  /** A deal's form submissions. */
  dealFormSubmissions: (orgId: string, transactionId: string) => `${txnPk(orgId, transactionId)}#FORMSUBS`,
  /** Open tasks of one assignee (a user id, or `unassigned`), soonest due first (sparse: only while open). */
  openTasksOf: (orgId: string, assignee: string | null) => `ORG#${orgId}#OPENTASKS#${assignee ?? '-'}`,
};

/**
 * GSI4 partitions (keys only). Items here are updated on the request path (the rate-limit counters of API keys
 * and OAuth grants); as GSI4 projects only keys, those updates write no index entry (1 write unit, not 2).
 */
export const gsi4 = {
  apiKeys: (orgId: string) => `ORG#${orgId}#APIKEYS`,
  /** Every OAuth grant of one user to one client (refresh-token reuse revokes them all, RFC 9700 §4.14). */
  oauthGrants: (userId: string, clientId: string) => `OAUTHGRANTS#${userId}#${clientId}`,
};

/** Sort key of a timestamped child: ISO time first so the collection reads in time order. */
export const timeSk = (prefix: string, isoTime: string, id: string) => `${prefix}#${isoTime}#${id}`;
