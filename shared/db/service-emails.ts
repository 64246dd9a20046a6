/**
 * Service emails queued for the send worker: plain-text email in the service's own name (a disclosure share, a
 * partner's invitation, a workspace notice), written with the change that causes it and its
 * `service_email.queued` outbox event in one transaction (shared/use-cases/messaging/queue-service-email.ts).
 * `PK = ORG#<orgId>#SVCMAIL#<emailId>`, `SK = SEND`; `orgId` puts it in the organization's GSI3 item collection, so
 * a workspace purge removes it.
 *
 * States and attempt rules are the outbound sends' (shared/db/outbound-sends.ts): `queued` → `sending` (recorded
 * before the provider is called) → `sent` | `failed` | `unknown`; a final one drops its payload (a disclosure link's
 * token is in the text) and expires after `SEND_RETENTION_SECONDS`.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { serviceEmailPk } from '#db/keys';
import { claimSendAttempt, releaseSendAttempt, sendAttemptFinish, type SendState } from '#db/outbound-sends';
import type { TransactItem } from '#db/transact';
import type { EventPayloads } from '#events/catalog';

/** Why the service emails: what the send worker marks besides the send (a disclosure recipient's `emailStatus`). */
export type ServiceEmailPurpose = EventPayloads['service_email.queued']['purpose'];

/** The plain-text email as sent: one recipient, the service's sender (`MAIL_FROM_ADDRESS`) with `fromName`. */
export interface ServiceEmailContent {
  to: string;
  fromName: string;
  subject: string;
  text: string;
}

/** The record the outcome of a send is also written to, or null (the log and metrics only). */
export type ServiceEmailSubject = { kind: 'disclosure_recipient'; packageId: string; recipientId: string } | null;

/** One queued service email. Times are ISO 8601. */
export interface ServiceEmail {
  orgId: string;
  emailId: string;
  purpose: ServiceEmailPurpose;
  subject: ServiceEmailSubject;
  state: SendState;
  /** When the current attempt started (`sending`), else null. */
  attemptAt: string | null;
  /** Absent once final. */
  payload?: ServiceEmailContent;
  /** The member or partner that caused it, or null. */
  requestedBy: string | null;
}

/** Key of a service email's send item. */
export const serviceEmailKey = (orgId: string, emailId: string) => ({ PK: serviceEmailPk(orgId, emailId), SK: 'SEND' });

/** The conditional `Put` of a new `queued` service email, for the transaction that makes the change it reports. */
export function serviceEmailPut(e: Omit<ServiceEmail, 'state' | 'attemptAt'>): TransactItem {
  return { Put: { TableName: tableName(), Item: { ...serviceEmailKey(e.orgId, e.emailId), entity: 'ServiceEmail', ...e, state: 'queued', attemptAt: null }, ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** The service email, read strongly consistent, or undefined. */
export async function getServiceEmail(orgId: string, emailId: string): Promise<ServiceEmail | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: serviceEmailKey(orgId, emailId), ConsistentRead: true }));
  if (!out.Item) return undefined;
  const { PK: _pk, SK: _sk, entity: _e, ttl: _t, finishedAt: _f, ...email } = out.Item;
  return email as ServiceEmail;
}

/** Records the attempt (`queued` → `sending`). @returns false when another attempt started or finished it */
export const claimServiceEmail = (orgId: string, emailId: string, now: Date) => claimSendAttempt(serviceEmailKey(orgId, emailId), now);

/** Gives the attempt back (`sending` → `queued`): nothing went out. @returns false when it was not `sending` at `attemptAt` */
export const releaseServiceEmail = (orgId: string, emailId: string, attemptAt: string) => releaseSendAttempt(serviceEmailKey(orgId, emailId), attemptAt);

/** The `Update` closing the send (`sending` → `state`, payload dropped, TTL set), for the transaction that marks it. */
export const serviceEmailFinish = (orgId: string, emailId: string, state: 'sent' | 'failed' | 'unknown', now: Date) => sendAttemptFinish(serviceEmailKey(orgId, emailId), state, now);
