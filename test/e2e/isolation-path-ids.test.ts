/**
 * Tenant isolation of every implemented operation that takes a resource id, in its path or as an `...Id` query
 * parameter (spec "Tenant isolation"): org B's actions key, and an OAuth access token of org B's owner, on org A's ids
 * answer 404 `not_found` exactly like a random id, and nothing is stored: the whole table (org A's resources and
 * outbox events included) and the stored files are compared before and after each case, as fuzz-edge does. (A partner key is
 * refused with 401 on all of these routes; the partner operations' own isolation, another partner's or an unowned
 * organization → 404, is in partner-orgs.test.ts.) The cases are derived from the registry: each
 * operation is called with its own module's `example` request and ids from the fixture below by parameter name,
 * so a new operation is covered without a row here (a new kind of id needs one line in `ID_OF`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { isImplemented, schemasOf } from '#api/operation';
import { loadOperations, type ModuleOperation } from '#lib/registry';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, outboxEvents, postTask, putKeyDates } from './deal-fixtures.ts';
import { extractionResult, pdfBytes, startTestS3, waitFor, type TestS3 } from './documents-fixtures.ts';
import { createJob } from '#db/extraction-jobs';
import { completeJob } from '#use-cases/finish-extraction';
import { proposeFromExtraction } from '#use-cases/proposals';
import { createApiKey } from '#db/api-keys';
import { communicationPuts, newCommunication } from '#db/communications';
import { conversationPuts, type Conversation } from '#db/conversations';
import { scheduledMessagePut } from '#db/scheduled-messages';
import { transactWrite } from '#db/transact';
import { addRecipient } from '#db/disclosures';
import { recordSubmission } from '#use-cases/intake';
import { SYSTEM_FORMS } from '#domain/intake-forms';
import { mintAccessToken } from '../support/oauth-flow.ts';
import { snapshot, snapshotDiff } from '../support/table-snapshot.ts';
import { failedDelivery } from '../support/webhook-delivery-fixture.ts';
import { notificationOf, putNotification } from '#db/notifications';

interface Ids {
  transactionId: string;
  taskId: string;
  commentId: string;
  documentId: string;
  jobId: string;
  webhookId: string;
  /** A failed delivery of that webhook (`{deliveryId}`). */
  deliveryId: string;
  contactId: string;
  /** An SMS conversation of org A (`{threadId}`). */
  threadId: string;
  /** A pending scheduled message of org A (`{messageId}`). */
  messageId: string;
  /** An active disclosure package of org A with one recipient. */
  packageId: string;
  recipientId: string;
  /** A form submission on org A's deal. */
  submissionId: string;
  /** A pending proposal of org A's deal (`/proposals/{id}`). */
  proposalId: string;
  /** An email template of org A (`{idOrSlug}`). */
  emailTemplateId: string;
  /** An unread notification of org A's owner (`{notificationId}`). */
  notificationId: string;
}

/** The fixture id for a parameter name (`id` is per group), or undefined when the fixture has none. */
const ID_OF: Record<string, (ids: Ids) => string> = {
  transactionId: (i) => i.transactionId,
  taskId: (i) => i.taskId,
  commentId: (i) => i.commentId,
  documentId: (i) => i.documentId,
  jobId: (i) => i.jobId,
  contactId: (i) => i.contactId,
  'webhooks.id': (i) => i.webhookId,
  deliveryId: (i) => i.deliveryId,
  'proposals.id': (i) => i.proposalId,
  keyDateType: () => 'ClosingDate',
  threadId: (i) => i.threadId,
  messageId: (i) => i.messageId,
  packageId: (i) => i.packageId,
  recipientId: (i) => i.recipientId,
  submissionId: (i) => i.submissionId,
  // A filter by a system form (the same for every organization); the listing's transactionId is what is isolated.
  formDefinitionId: () => SYSTEM_FORMS[0]!.id,
  idOrSlug: (i) => i.emailTemplateId,
  notificationId: (i) => i.notificationId,
};

const operations = await loadOperations();

/** Path parameters of an operation, and its query parameters named like ids. */
function idParams(op: ModuleOperation): { path: string[]; query: string[] } {
  const schemas = schemasOf(op);
  const query = Object.keys(schemas.query?.shape ?? {}).filter((k) => /Id$/.test(k));
  return { path: [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]), query };
}

const idLookup = (op: ModuleOperation, param: string) => ID_OF[`${op.group}.${param}`] ?? ID_OF[param];

/** Implemented operations that take an id. */
// getForm reads a system form, the same for every organization: there is no org A resource to isolate.
const CASES = operations.filter((op) => isImplemented(op) && op.access !== 'partner' && op.operationId !== 'getForm' && (idParams(op).path.length > 0 || idParams(op).query.length > 0));

/** The request of `op` with `ids`: its example's query and body, ids filled in by parameter name. */
function requestOf(op: ModuleOperation, ids: Ids): { path: string; body?: unknown } {
  const { query } = idParams(op);
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(idLookup(op, name)!(ids)));
  const params = new URLSearchParams({ ...(op.example?.query as Record<string, string> | undefined) });
  for (const name of query) params.set(name, idLookup(op, name)!(ids));
  const qs = params.toString();
  return { path: qs ? `${path}?${qs}` : path, body: op.example?.body };
}

let t: TestApi;
let s3: TestS3;
let a: TestOrg;
let b: TestOrg;
let ids: Ids;

/** A fresh key of `org` with every scope: each case has its own rate-limit windows, however many cases there are. */
const keyOf = async (org: TestOrg) => (await createApiKey({ orgId: org.orgId, userId: org.ownerUserId, name: 'isolation', scopes: ['read', 'draft', 'actions'] })).value;

beforeAll(async () => {
  t = await startTestApi();
  s3 = await startTestS3();
  a = await t.newOrg('Org A Realty');
  b = await t.newOrg('Org B Realty');
  const deal = await createDeal(a, '100 Private Ln', { status: 'Under Contract' });
  await putKeyDates(t, a.keys.draft, deal.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-30' }]);
  const tk = await postTask(t, a.keys.draft, deal.id, { title: 'A task', linkedMilestoneName: 'ClosingDate', dueDate: '2026-12-28' });
  const c = await t.call('POST', `/api/v1/tasks/${tk.id}/comments`, { key: a.keys.draft, body: { content: 'A comment' } });
  expect(c.status).toBe(200);
  const up = await t.call('POST', '/api/v1/documents', { key: a.keys.draft, body: { fileName: 'A contract.pdf', contentBase64: pdfBytes().toString('base64'), transactionId: deal.id } });
  expect(up.status).toBe(200);
  await waitFor(async () => ((await t.call('GET', `/api/v1/documents/${up.body.data.documentId}`, { key: a.keys.read })).body.data.uploadState === 'uploaded' ? true : undefined));
  const hook = await t.call('POST', '/api/v1/webhooks', { key: a.keys.actions, body: { name: 'A hook', url: 'https://93.184.215.14/hooks/a', events: ['*'] } });
  expect(hook.status).toBe(200);
  const contact = await t.call('POST', '/api/v1/contacts', { key: a.keys.actions, body: { firstName: 'Private', lastName: 'Party', email: 'party@a.test' } });
  expect(contact.status).toBe(200);
  const linked = await t.call('POST', `/api/v1/transactions/${deal.id}/contacts`, { key: a.keys.actions, body: { contactId: contact.body.data.id, role: 'Buyer' } });
  expect(linked.status).toBe(200);
  const template = await t.call('POST', '/api/v1/email-templates', { key: a.keys.actions, body: { name: 'A template', subject: 'For {{property.address}}', body: 'Private.' } });
  expect(template.status).toBe(200);
  ids = {
    emailTemplateId: template.body.data.id,
    transactionId: deal.id,
    taskId: tk.id,
    commentId: c.body.data.id,
    documentId: up.body.data.documentId,
    jobId: up.body.data.jobId,
    webhookId: hook.body.data.id,
    deliveryId: await failedDelivery(a.orgId, hook.body.data.id),
    contactId: contact.body.data.id,
    ...(await messagingFixtures(a, deal.id)),
    ...(await pageFixtures(a, deal.id, up.body.data.documentId)),
    proposalId: await proposalFixture(a, deal.id),
    notificationId: randomUUID(),
  };
  // Stored directly (fan-out writes notifications; this runtime runs no stream poller).
  const notice = { type: 'task.assigned', title: 'Task assigned to you', body: 'A task', transactionId: deal.id, to: 'all' as const };
  expect(await putNotification(a.orgId, a.ownerUserId, notificationOf(notice, ids.notificationId, {}, new Date().toISOString()))).toBe(true);
  // Org B has data of its own, so a leak could not hide behind an empty org.
  const own = await createDeal(b, '200 Public Ave');
  await postTask(t, b.keys.draft, own.id, { title: 'B task' });
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

/**
 * Org A's conversation (with one text) and pending scheduled message, written through the repositories: this file's
 * runtime has no SMS transport or scheduler, and no operation here may send anything.
 */
async function messagingFixtures(org: TestOrg, transactionId: string): Promise<Pick<Ids, 'threadId' | 'messageId'>> {
  const now = new Date();
  const at = now.toISOString();
  const conversation: Conversation = { id: randomUUID(), transactionId, phone: '+15125550143', contactId: null, name: 'A party', lastMessageAt: at, lastMessagePreview: 'A text', messageCount: 1, createdAt: at };
  const text = newCommunication({ transactionId, channel: 'sms', direction: 'outbound', kind: 'sms', status: 'sent', threadId: conversation.id, from: { address: '+15550100000', name: null, contactId: null }, to: [{ address: conversation.phone, name: null, contactId: null }], bodyText: 'A text' }, now);
  const sendAt = new Date(now.getTime() + 30 * 86_400_000).toISOString();
  const messageId = randomUUID();
  await transactWrite([
    ...conversationPuts(org.orgId, conversation),
    ...communicationPuts(org.orgId, text),
    scheduledMessagePut(org.orgId, {
      id: messageId,
      transactionId,
      status: 'pending',
      sendAt,
      scheduledLocal: sendAt.slice(0, 19),
      scheduledTimezone: 'UTC',
      email: { toEmail: 'a@example.com', ccAddresses: null, bccAddresses: null, subject: 'A scheduled email', body: 'x', htmlBody: null, fromAccountId: null, documentIds: [], documentFileNames: {} },
      scheduleName: `msg-${messageId}`,
      createdBy: org.ownerUserId,
      createdAt: at,
      updatedAt: at,
      sentMessageId: null,
      error: null,
    }),
  ]);
  return { threadId: conversation.id, messageId };
}

/** Org A's active disclosure package (with a recipient, stored directly: no mail here) and a form submission. */
async function pageFixtures(org: TestOrg, transactionId: string, documentId: string): Promise<Pick<Ids, 'packageId' | 'recipientId' | 'submissionId'>> {
  const pkg = await t.call('POST', '/api/v1/disclosure-packages', { key: org.keys.actions, body: { name: 'A disclosures', transactionId, documentIds: [documentId] } });
  expect(pkg.status).toBe(200);
  const now = new Date();
  const recipientId = randomUUID();
  await addRecipient(
    org.orgId,
    { id: recipientId, packageId: pkg.body.data.id, email: 'a-recipient@example.com', displayLabel: null, audienceTier: null, contactId: null, expiresAt: new Date(now.getTime() + 86_400_000).toISOString(), invitedAt: now.toISOString(), invitedBy: null, revokedAt: null, firstViewedAt: null, lastViewedAt: null, viewCount: 0, acknowledgedAt: null },
    now,
  );
  const sub = await recordSubmission(org.orgId, transactionId, SYSTEM_FORMS[0]!, { fullName: 'A client', email: 'a-client@example.com', financing: 'Cash' }, now);
  return { packageId: pkg.body.data.id, recipientId, submissionId: sub.id };
}

/** A pending proposal on org A's deal: a job of the deal completed with a contract whose closing differs. */
async function proposalFixture(org: TestOrg, transactionId: string): Promise<string> {
  const job = await createJob(org.orgId, { documentId: randomUUID(), transactionId, bucket: 'isolation', key: 'isolation/amendment.pdf' }, new Date());
  await completeJob(org.orgId, job.jobId, extractionResult(), new Date());
  const p = await proposeFromExtraction(org.orgId, job.jobId, new Date());
  return p!.id;
}

describe('tenant isolation of operations with a resource id', () => {
  it('covers the implemented operations that take ids, and the fixture has every kind of id they name', () => {
    expect(CASES.length).toBeGreaterThan(20);
    const unknown = CASES.flatMap((op) => [...idParams(op).path, ...idParams(op).query].filter((p) => !idLookup(op, p)).map((p) => `${op.operationId}: ${p}`));
    expect(unknown, 'add these parameter names to ID_OF').toEqual([]);
  });

  it.each(CASES.map((op) => [op.operationId, op] as const))("%s: org B gets the random-id 404 on org A's resource, and nothing is stored", async (_name, op) => {
    const [aKey, bKey] = [await keyOf(a), await keyOf(b)];
    // The second credential type: an OAuth access token of org B's owner (its own grant, so its own rate windows).
    const bToken = await mintAccessToken(t.baseUrl, b.orgId, b.ownerUserId);
    const random = Object.fromEntries(Object.keys(ids).map((k) => [k, randomUUID()])) as unknown as Ids;
    const own = requestOf(op, ids);
    const other = requestOf(op, random);
    const before = await snapshot();

    const foreign = await t.call(op.method, own.path, { key: bKey, body: own.body });
    const unknown = await t.call(op.method, other.path, { key: bKey, body: other.body });
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(unknown.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect(foreign.text).not.toContain(ids.transactionId);
    expect(foreign.text).not.toContain('100 Private');

    const viaToken = await t.call(op.method, own.path, { key: bToken, body: own.body });
    expect(viaToken.status, viaToken.text).toBe(404);
    expect(viaToken.body).toEqual(unknown.body);

    // Nothing anywhere changed: every item of the table (org A's and B's, outbox events included) and every stored
    // file, but the credentials' own per-request counters (test/support/table-snapshot.ts).
    expect(snapshotDiff(before, await snapshot())).toEqual([]);

    // The same call with org A's own key succeeds, so the 404 above is isolation, not a broken route.
    if (op.method === 'GET') expect((await t.call(op.method, own.path, { key: aKey })).status).toBe(200);
  });

  it('org B wrote no events and no data about org A', async () => {
    const bEvents = await outboxEvents(b.orgId);
    expect(bEvents.filter((e) => [ids.transactionId, ids.taskId, ids.documentId, ids.jobId, ids.contactId].some((id) => JSON.stringify(e.data).includes(id)))).toEqual([]);
    const deal = (await t.call('GET', `/api/v1/transactions/${ids.transactionId}`, { key: a.keys.read })).body.data;
    expect(deal).toMatchObject({ status: 'Under Contract', notes: null, closedAt: null });
    expect(deal.recentActivity.map((x: any) => x.type)).toEqual(['contact_linked']);
    expect(deal.contacts.map((x: any) => [x.contactId, x.role, x.name, x.email])).toEqual([[ids.contactId, 'Buyer', 'Private Party', 'party@a.test']]);
    expect(deal.keyDates.map((k: any) => k.dateValue)).toEqual(['2026-12-30']);
    expect(deal.tasks.map((x: any) => [x.title, x.status, x.assigneeUserId, x.dueDate])).toEqual([['A task', 'open', null, '2026-12-28']]);
    const comments = (await t.call('GET', `/api/v1/tasks/${ids.taskId}/comments`, { key: a.keys.read })).body.data;
    expect(comments.map((x: any) => x.content)).toEqual(['A comment']);
  });
});
