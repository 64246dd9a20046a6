/**
 * Service email off the request path on DynamoDB Local: inviting a disclosure recipient writes the recipient, their
 * link, the queued share email and its `service_email.queued` outbox event in one transaction and sends nothing; the
 * send worker's use case (shared/use-cases/messaging/deliver-service-email.ts) emails it once through the local SMTP
 * server and marks the recipient `sent`; an address suppressed before the worker runs is never emailed and the
 * recipient shows `failed` with the reason. A new organization's owner is invited the same way (the deletion notice:
 * test/e2e/workspace-lifecycle.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { useTestTable } from '../support/test-table.ts';
import { createOrganization, getUser } from '#db/orgs';
import { db, tableName } from '#db/client';
import { createDocument } from '#db/documents';
import { suppressEmail } from '#db/consent';
import { getServiceEmail } from '#db/service-emails';
import { resetPlainMailer } from '#ports/plain-mailer';
import { startLocalSmtp, storedMail, type LocalSmtp } from '#lib/local/smtp-sink';
import { createDisclosurePackage, inviteDisclosureRecipient } from '#use-cases/disclosures';
import { getPackageState } from '#db/disclosures';
import { deliverQueuedServiceEmail } from '#use-cases/messaging/deliver-service-email';
import type { Actor } from '#events/outbox';

const NOW = new Date('2030-04-01T15:00:00.000Z');
const at = (ms: number) => () => new Date(NOW.getTime() + ms);
let actor: Actor;
let packageId: string;
let smtp: LocalSmtp;
let dir: string;

const mailTo = (address: string) => storedMail(smtp.directory).filter((m) => m.to.includes(address));
const recipientInput = (email: string) => ({ email, contactId: null, displayLabel: 'Pat', audienceTier: null, expiresAt: null });

/** The `service_email.queued` events of the organization. */
async function queuedEvents() {
  const out = await db().send(new ScanCommand({ TableName: tableName(), FilterExpression: 'entity = :e AND orgId = :o', ExpressionAttributeValues: { ':e': 'OutboxEvent', ':o': actor.orgId }, ConsistentRead: true }));
  return (out.Items ?? []).map((i) => i.envelope).filter((e) => e.eventType === 'service_email.queued');
}

beforeAll(async () => {
  await useTestTable();
  dir = mkdtempSync(path.join(tmpdir(), 'service-email-'));
  smtp = await startLocalSmtp({ directory: dir, inboundDomain: 'reply.service-email.test' });
  vi.stubEnv('MAIL_TRANSPORT', 'local');
  vi.stubEnv('LOCAL_SMTP_URL', smtp.url);
  vi.stubEnv('MAIL_FROM_ADDRESS', 'notices@service-email.test');
  resetPlainMailer();
  const org = await createOrganization({ name: 'Queued Mail Realty', ownerEmail: 'owner@service-email.test' });
  actor = { orgId: org.orgId, userId: org.ownerUserId };
  const at = NOW.toISOString();
  const doc = await createDocument({
    id: randomUUID(), orgId: actor.orgId, transactionId: null, name: 'sellers-disclosure.pdf', documentType: 'Other' as never, documentTypeSource: 'declared', contentType: 'application/pdf',
    sizeBytes: 1024, s3Key: `documents/${actor.orgId}/sellers-disclosure.pdf`, uploadState: 'uploaded', uploadError: null, extractionState: 'none', extractOnUpload: false, latestJobId: null, order: 0,
    createdAt: at, updatedAt: at, uploadedAt: at, createdBy: actor.userId,
  });
  packageId = (await createDisclosurePackage(actor, { name: 'Disclosures', documentIds: [doc.id] }, NOW)).pkg.id;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetPlainMailer();
  await smtp.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('service email: queued with the change, sent once by the worker', () => {
  it('a disclosure share is queued with its recipient and sent nothing; the worker emails it once and marks the recipient sent', async () => {
    const { recipient } = await inviteDisclosureRecipient(actor, packageId, recipientInput('pat@service-email.test'), 'https://pages.example', NOW);
    expect(recipient.emailStatus).toBe('queued');
    const [event] = (await queuedEvents()).filter((e) => e.data.purpose === 'disclosure_share');
    expect(event).toMatchObject({ data: { emailId: expect.any(String), purpose: 'disclosure_share' } });
    const queued = await getServiceEmail(actor.orgId, event.data.emailId);
    expect(queued).toMatchObject({ state: 'queued', subject: { kind: 'disclosure_recipient', packageId, recipientId: recipient.id }, payload: { to: 'pat@service-email.test', fromName: 'Queued Mail Realty' } });
    expect(queued!.payload!.text).toMatch(/Open it here: https:\/\/pages\.example\/d\/[A-Za-z0-9_-]{43}/);
    expect(mailTo('pat@service-email.test')).toHaveLength(0);

    expect(await deliverQueuedServiceEmail(actor.orgId, event.data.emailId, at(0))).toBe('sent');
    expect(await deliverQueuedServiceEmail(actor.orgId, event.data.emailId, at(1_000))).toBe('skipped');
    await smtp.idle();
    const mail = mailTo('pat@service-email.test');
    expect(mail).toHaveLength(1);
    expect(mail[0].raw.toString('utf8')).toMatch(/Subject: Disclosures: documents shared with you/);
    expect((await getPackageState(actor.orgId, packageId)).recipients.find((r) => r.id === recipient.id)).toMatchObject({ emailStatus: 'sent', emailDetail: null });
    const sent = await getServiceEmail(actor.orgId, event.data.emailId);
    expect(sent).toMatchObject({ state: 'sent' });
    expect(sent).not.toHaveProperty('payload');
  });

  it('an address suppressed before the worker runs is never emailed: the recipient shows failed with the reason', async () => {
    const { recipient } = await inviteDisclosureRecipient(actor, packageId, recipientInput('bounced@service-email.test'), 'https://pages.example', NOW);
    await suppressEmail('bounced@service-email.test', 'bounce', 'mailbox does not exist', actor.orgId, NOW);
    const mine: string[] = [];
    for (const e of await queuedEvents()) if ((await getServiceEmail(actor.orgId, e.data.emailId))?.subject?.recipientId === recipient.id) mine.push(e.data.emailId);
    expect(mine).toHaveLength(1);
    expect(await deliverQueuedServiceEmail(actor.orgId, mine[0], at(0))).toBe('failed');
    await smtp.idle();
    expect(mailTo('bounced@service-email.test')).toHaveLength(0);
    expect((await getPackageState(actor.orgId, packageId)).recipients.find((r) => r.id === recipient.id)).toMatchObject({ emailStatus: 'failed', emailDetail: expect.stringMatching(/suppressed/) });
  });

  it('the owner of a new organization is invited through the queue: the organization and its invitation commit together', async () => {
    const { provisionOrg } = await import('#use-cases/partner-orgs');
    const created = await provisionOrg('partner-1', { name: 'Lone Star Queue', owner: { email: 'ava@service-email.test', firstName: 'Ava', lastName: 'Nguyen' } }, NOW);
    expect(await getUser(created.orgId, created.owner!.userId)).toMatchObject({ email: 'ava@service-email.test' });
    const out = await db().send(new ScanCommand({ TableName: tableName(), FilterExpression: 'entity = :e AND orgId = :o', ExpressionAttributeValues: { ':e': 'ServiceEmail', ':o': created.orgId }, ConsistentRead: true }));
    expect(out.Items).toHaveLength(1);
    const invitation = out.Items![0];
    expect(invitation).toMatchObject({ purpose: 'partner_invitation', state: 'queued', payload: { to: 'ava@service-email.test', subject: 'You are invited to Lone Star Queue' } });
    expect(mailTo('ava@service-email.test')).toHaveLength(0);
    expect(await deliverQueuedServiceEmail(created.orgId, invitation.emailId, at(0))).toBe('sent');
    await smtp.idle();
    expect(mailTo('ava@service-email.test')).toHaveLength(1);
  });
});
