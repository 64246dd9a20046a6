/**
 * Resources the edge fuzz suite binds valid requests to, so a mutated request that passes validation reaches
 * its handler with real state: a deal with a key date, a task with a comment, an uploaded document on the
 * deal, a completed (not applied) extraction job, a webhook subscription, a contact linked to the deal under every
 * role the messaging examples name (with an email and a mobile number), an SMS conversation with it and a pending
 * scheduled email. Each is made on first use, through the API where it exists, and made again once a request
 * consumed it (deleted, applied, cancelled). The messaging ones need the local transports
 * (`startLocalMessaging`).
 */
import { randomUUID } from 'node:crypto';
import { addUser, createOrganization } from '#db/orgs';
import { createPartner, createPartnerKey } from '#db/partners';
import { createTransaction } from '#use-cases/create-transaction';
import { addRecipient } from '#db/disclosures';
import { recordSubmission } from '#use-cases/intake';
import { SYSTEM_FORMS } from '#domain/intake-forms';
import type { ModuleOperation } from '#lib/registry';
import { schemasOf } from '#api/operation';
import type { TestApi, TestOrg } from '../support/http-client.ts';
import type { Credentials, ValidRequest } from '../support/fuzz-request.ts';
import { extractionResult, pdfBytes, TREC_VALUES, uploadAndComplete, waitFor } from './documents-fixtures.ts';
import { proposeFromExtraction } from '#use-cases/proposals';
import { createJob } from '#db/extraction-jobs';
import { completeJob } from '#use-cases/finish-extraction';
import { notificationOf, putNotification } from '#db/notifications';
import { failedDelivery } from '../support/webhook-delivery-fixture.ts';

/** Webhook target on loopback (LOCAL_MODE allows plain http there); nothing listens, nothing is delivered here. */
export const HOOK_URL = 'http://127.0.0.1:9/hook';

type Memo = Partial<Record<'deal' | 'task' | 'document' | 'job' | 'webhook' | 'contact' | 'conversation' | 'scheduled' | 'disclosure' | 'submission' | 'proposal' | 'notification', Promise<Record<string, string>>>>;

/** The workspace name of the fuzzed organization (a deletion request's `confirmName` must equal it). */
export const FUZZ_ORG_NAME = 'Fuzz Realty';

/** The roles the messaging examples address (the contact fixture holds all of them, as a dual agent would). */
const CONTACT_ROLES = ['Buyer', "Buyer's Agent", 'Listing Agent'];
/** The contact fixture's mobile number (E.164). */
const CONTACT_PHONE = '+15125550143';

/** The fixtures of one organization on the current table. */
export class FuzzFixtures {
  private memo: Memo = {};
  private partnerKey?: string;
  /** Amendments made for proposal fixtures (each moves closing one more day, so each proposes a change). */
  private amendments = 0;
  /** A partner (read and actions permissions) and an organization it provisioned, for the `/api/v1/orgs` operations. */
  private partner?: { key: string; orgId: string };
  /** Counts the fixtures made (and rechecks), so a caller knows when the table changed outside its requests. */
  version = 0;

  constructor(
    private readonly t: TestApi,
    readonly org: TestOrg,
    readonly other: TestOrg,
  ) {}

  private once(name: keyof Memo, make: () => Promise<Record<string, string>>): Promise<Record<string, string>> {
    if (!this.memo[name]) this.version++;
    const p = (this.memo[name] ??= make());
    p.catch(() => delete this.memo[name]);
    return p;
  }

  private async ok(method: string, path: string, key: string, body?: unknown) {
    const r = await this.t.call(method, path, { key, body });
    if (r.status !== 200) throw new Error(`fixture ${method} ${path}: ${r.status} ${r.text}`);
    return r.body.data;
  }

  /** A deal with a `ClosingDate` key date. */
  deal = () =>
    this.once('deal', async () => {
      const deal = await createTransaction(
        { orgId: this.org.orgId, userId: this.org.ownerUserId },
        { propertyAddress: { street: '12 Fuzz Ln', city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Prospect' },
      );
      await this.ok('POST', `/api/v1/transactions/${deal.id}/key-dates`, this.org.keys.draft, { keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2030-06-01' }] });
      return { transactionId: deal.id };
    });

  /** A task of the deal, with one comment. */
  task = () =>
    this.once('task', async () => {
      const { transactionId } = await this.deal();
      const task = await this.ok('POST', `/api/v1/transactions/${transactionId}/tasks`, this.org.keys.draft, { title: 'Fuzz task', linkedMilestoneName: 'ClosingDate' });
      const comment = await this.ok('POST', `/api/v1/tasks/${task.id}/comments`, this.org.keys.draft, { content: 'first' });
      return { taskId: task.id, commentId: comment.id };
    });

  /** An active disclosure package holding the document, with one invited recipient (stored directly: no email). */
  disclosure = () =>
    this.once('disclosure', async () => {
      const { documentId } = await this.document();
      const { transactionId } = await this.deal();
      const pkg = await this.ok('POST', '/api/v1/disclosure-packages', this.org.keys.actions, { name: 'Fuzz disclosures', transactionId, documentIds: [documentId] });
      const now = new Date();
      const recipientId = randomUUID();
      await addRecipient(
        this.org.orgId,
        { id: recipientId, packageId: pkg.id, email: 'fuzz@example.com', displayLabel: null, audienceTier: null, contactId: null, expiresAt: new Date(now.getTime() + 86_400_000).toISOString(), invitedAt: now.toISOString(), invitedBy: null, revokedAt: null, firstViewedAt: null, lastViewedAt: null, viewCount: 0, acknowledgedAt: null },
        now,
      );
      return { packageId: pkg.id, recipientId };
    });

  /** A submission of the buyer intake form on the deal (stored directly, as the public page stores it). */
  submission = () =>
    this.once('submission', async () => {
      const { transactionId } = await this.deal();
      const s = await recordSubmission(this.org.orgId, transactionId, SYSTEM_FORMS[0]!, { fullName: 'Fuzz Client', email: 'client@example.com', financing: 'Cash' }, new Date());
      return { submissionId: s.id };
    });

  /** An uploaded PDF attached to the deal (no extraction started). */
  document = () =>
    this.once('document', async () => {
      const { transactionId } = await this.deal();
      const body = { fileName: 'Fuzz contract.pdf', contentBase64: pdfBytes().toString('base64'), transactionId, extract: false };
      const { documentId } = await this.ok('POST', '/api/v1/documents', this.org.keys.draft, body);
      await waitFor(async () => ((await this.t.call('GET', `/api/v1/documents/${documentId}`, { key: this.org.keys.read })).body?.data?.uploadState === 'uploaded' ? true : undefined));
      return { documentId };
    });

  /** A completed extraction job, not applied yet. */
  job = () => this.once('job', async () => ({ jobId: (await uploadAndComplete(this.t, this.org)).jobId }));

  /**
   * A pending proposal on the deal: an extraction job of the deal completed with an amendment's result (TREC values,
   * another closing date), proposed by the producer the extraction pipeline calls.
   */
  proposal = () =>
    this.once('proposal', async () => {
      const { transactionId } = await this.deal();
      // A job of the deal completed with the amendment's result (no upload: quicker, and the producer reads only the job).
      const result = extractionResult({ ...TREC_VALUES, closingDate: new Date(Date.parse('2030-04-15T00:00:00Z') + ++this.amendments * 86_400_000).toISOString().slice(0, 10) });
      const { jobId } = await createJob(this.org.orgId, { documentId: randomUUID(), transactionId, bucket: 'fuzz', key: 'fuzz/amendment.pdf' }, new Date());
      await completeJob(this.org.orgId, jobId, result, new Date());
      const p = await proposeFromExtraction(this.org.orgId, jobId, new Date());
      if (!p) throw new Error('fixture proposal: the amendment proposed nothing');
      return { id: p.id };
    });

  /** A webhook subscription. */
  webhook = () =>
    this.once('webhook', async () => ({ id: (await this.ok('POST', '/api/v1/webhooks', this.org.keys.actions, { name: 'Fuzz hook', url: HOOK_URL, events: ['*'] })).id }));

  /** A contact of the organization with an email and a mobile number, linked to the deal under {@link CONTACT_ROLES}. */
  contact = () =>
    this.once('contact', async () => {
      const { transactionId } = await this.deal();
      const keys = this.org.keys;
      const body = { firstName: 'Fuzz', lastName: `Party ${randomUUID().slice(0, 8)}`, email: `party+${randomUUID().slice(0, 8)}@example.test`, phone: CONTACT_PHONE };
      const contact = await this.ok('POST', '/api/v1/contacts', keys.actions, body);
      for (const role of CONTACT_ROLES) await this.ok('POST', `/api/v1/transactions/${transactionId}/contacts`, keys.actions, { contactId: contact.id, role });
      return { contactId: contact.id };
    });

  /** An SMS conversation with the contact (its first text is in the local SMS sink). */
  conversation = () =>
    this.once('conversation', async () => {
      const [{ transactionId }, { contactId }] = [await this.deal(), await this.contact()];
      const body = { contactId, toPhoneNumber: null, messageContent: `Fuzz text ${randomUUID()}`, forceOverride: false };
      return { threadId: (await this.ok('POST', `/api/v1/transactions/${transactionId}/conversations`, this.org.keys.actions, body)).conversation.id };
    });

  /**
   * A notification of the owner (whose keys the suite uses), stored directly: fan-out writes them, and this runtime
   * runs no stream poller. Marking it read again is a 200 too, so no request consumes it.
   */
  notification = () =>
    this.once('notification', async () => {
      const id = randomUUID();
      const draft = { type: 'form.submission_received', title: 'Intake form submitted', body: 'A client sent the buyer intake form.', transactionId: null, to: 'all' as const };
      await putNotification(this.org.orgId, this.org.ownerUserId, notificationOf(draft, id, {}, new Date().toISOString()));
      return { notificationId: id };
    });

  /** A pending scheduled email of the deal, due in a year. */
  scheduled = () =>
    this.once('scheduled', async () => {
      const { transactionId } = await this.deal();
      const at = new Date(Date.now() + 365 * 86_400_000).toISOString();
      const body = { scheduledAt: at, toEmail: 'fuzz@example.test', subject: 'Fuzz scheduled', body: 'x' };
      return { messageId: (await this.ok('POST', `/api/v1/transactions/${transactionId}/scheduled-messages`, this.org.keys.actions, body)).id };
    });

  /**
   * Forgets every fixture a successful write may have consumed (deleted, applied, moved), so the next case
   * makes it again; the ones still intact are kept.
   */
  async recheck(): Promise<void> {
    this.version++;
    const read = this.org.keys.read;
    const gone = async (p: Promise<Record<string, string>> | undefined, path: (v: Record<string, string>) => string, usable: (data: any) => boolean = () => true) => {
      if (!p) return false;
      const v = await p.catch(() => undefined);
      if (!v) return true;
      const r = await this.t.call('GET', path(v), { key: read });
      return r.status !== 200 || !usable(r.body.data);
    };
    const checks: [keyof Memo, boolean][] = await Promise.all([
      gone(this.memo.deal, (v) => `/api/v1/transactions/${v.transactionId}`, (d) => d.keyDates.some((k: { keyDateType: string }) => k.keyDateType === 'ClosingDate')).then((g) => ['deal', g] as [keyof Memo, boolean]),
      gone(this.memo.task, (v) => `/api/v1/tasks/${v.taskId}/comments`, (d) => d.length > 0).then((g) => ['task', g] as [keyof Memo, boolean]),
      gone(this.memo.document, (v) => `/api/v1/documents/${v.documentId}`, (d) => d.uploadState === 'uploaded').then((g) => ['document', g] as [keyof Memo, boolean]),
      gone(this.memo.job, (v) => `/api/v1/extractions/${v.jobId}`, (d) => d.state === 'completed' && !d.appliedTransactionId).then((g) => ['job', g] as [keyof Memo, boolean]),
      gone(this.memo.webhook, (v) => `/api/v1/webhooks/${v.id}`).then((g) => ['webhook', g] as [keyof Memo, boolean]),
      gone(this.memo.contact, (v) => `/api/v1/contacts/${v.contactId}`, (d) => d.phone !== null && d.email !== null).then((g) => ['contact', g] as [keyof Memo, boolean]),
      gone(this.memo.conversation, (v) => `/api/v1/conversations/${v.threadId}/messages`).then((g) => ['conversation', g] as [keyof Memo, boolean]),
      this.scheduledGone().then((g) => ['scheduled', g] as [keyof Memo, boolean]),
      gone(this.memo.proposal, (v) => `/api/v1/proposals/${v.id}`, (d) => d.status === 'pending' && !d.stale).then((g) => ['proposal', g] as [keyof Memo, boolean]),
    ]);
    for (const [name, isGone] of checks) if (isGone) delete this.memo[name];
    // A task or document belongs to the deal: a new deal means new ones.
    if (!this.memo.deal) {
      delete this.memo.task;
      delete this.memo.document;
      delete this.memo.contact;
      delete this.memo.scheduled;
      delete this.memo.proposal;
    }
    if (!this.memo.contact) delete this.memo.conversation;
    // A package holds the document; a submission belongs to the deal.
    if (!this.memo.document) delete this.memo.disclosure;
    if (!this.memo.deal) delete this.memo.submission;
  }

  /** Whether the scheduled-email fixture is no longer pending (cancelled, or its deal gone). */
  private async scheduledGone(): Promise<boolean> {
    const [deal, scheduled] = [this.memo.deal, this.memo.scheduled];
    if (!deal || !scheduled) return Boolean(scheduled);
    const [d, m] = [await deal.catch(() => undefined), await scheduled.catch(() => undefined)];
    if (!d || !m) return true;
    const r = await this.t.call('GET', `/api/v1/transactions/${d.transactionId}/scheduled-messages`, { key: this.org.keys.read });
    return r.status !== 200 || !r.body.data.some((x: { id: string; status: string }) => x.id === m.messageId && x.status === 'pending');
  }

  /** The API keys a case can present for `op`. */
  async credentials(op: ModuleOperation): Promise<Credentials> {
    const partner = await this.partnerFixture();
    const access = op.access === 'partner' ? 'read' : op.access;
    return {
      valid: op.access === 'partner' ? partner.key : this.org.keys[access],
      otherOrg: this.other.keys[access],
      wrongScope: access === 'read' ? this.org.keys.draft : this.org.keys.read,
      partner: partner.key,
    };
  }

  private async partnerFixture(): Promise<{ key: string; orgId: string }> {
    if (!this.partner) {
      this.version++;
      const { partnerId } = await createPartner('Fuzz Partner');
      const key = (await createPartnerKey(partnerId, 'fuzz partner', ['read', 'actions'])).value;
      const org = await createOrganization({ name: 'Fuzz Partner Org', ownerEmail: `fuzz-owner+${randomUUID().slice(0, 8)}@example.test`, partnerId });
      this.partner = { key, orgId: org.orgId };
    }
    return this.partner;
  }

  /** The value of a path parameter that names an existing resource of the organization. */
  private async pathValue(op: ModuleOperation, name: string): Promise<string> {
    switch (name) {
      case 'transactionId':
        return (await this.deal()).transactionId;
      case 'taskId':
        return (await this.task()).taskId;
      case 'commentId':
        return (await this.task()).commentId;
      case 'documentId':
        return (await this.document()).documentId;
      case 'jobId':
        return (await this.job()).jobId;
      case 'id':
        if (op.path.startsWith('/api/v1/proposals/')) return (await this.proposal()).id;
        return op.path.startsWith('/api/v1/webhooks/') ? (await this.webhook()).id : randomUUID();
      case 'deliveryId':
        // A failed delivery of the webhook fixture, fresh each time (each valid call redelivers it).
        this.version++;
        return failedDelivery(this.org.orgId, (await this.webhook()).id);
      case 'keyDateType':
        return 'ClosingDate';
      case 'contactId':
        return (await this.contact()).contactId;
      case 'threadId':
        return (await this.conversation()).threadId;
      case 'messageId':
        return (await this.scheduled()).messageId;
      case 'packageId':
        return (await this.disclosure()).packageId;
      case 'recipientId':
        return (await this.disclosure()).recipientId;
      case 'formId':
        return SYSTEM_FORMS[0]!.id;
      case 'submissionId':
        return (await this.submission()).submissionId;
      case 'idOrSlug':
        return 'closing-reminder';
      case 'notificationId':
        return (await this.notification()).notificationId;
      case 'orgId':
        return op.access === 'partner' ? (await this.partnerFixture()).orgId : this.org.orgId;
      case 'userId': {
        if (op.access !== 'partner') return this.org.ownerUserId;
        // A seat to remove (a fresh one each time: a removal before leaves none).
        this.version++;
        return (await addUser((await this.partnerFixture()).orgId, { email: `fuzz-seat+${randomUUID().slice(0, 8)}@example.test`, firstName: null, lastName: null, role: 'agent' })).userId;
      }
      default:
        return randomUUID();
    }
  }

  /** Replaces, by field name, the ids and URLs of an example with this organization's resources. */
  private async bindValue(key: string, value: unknown): Promise<unknown> {
    switch (key) {
      case 'transactionId':
        return typeof value === 'string' ? (await this.deal()).transactionId : value;
      case 'documentId':
        return (await this.document()).documentId;
      case 'extractionJobId':
        return (await this.job()).jobId;
      case 'orderedDocumentIds':
      case 'documentIds':
        return [(await this.document()).documentId];
      // A contact named in a body (null in the examples that text a number instead stays null).
      case 'contactId':
      case 'recipientContactId':
        return typeof value === 'string' ? (await this.contact()).contactId : value;
      // Roles a reminder addresses: the contact fixture holds them.
      case 'recipientRoles':
        if (typeof value === 'string') await this.contact();
        return value;
      case 'url':
        return HOOK_URL;
      case 'confirmName':
        return typeof value === 'string' ? FUZZ_ORG_NAME : value;
      default:
        return this.bind(value);
    }
  }

  private async bind(value: unknown): Promise<unknown> {
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.bind(v)));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await this.bindValue(k, v);
    return out;
  }

  /** The operation's example request, bound to this organization's resources. */
  async validRequest(op: ModuleOperation): Promise<ValidRequest> {
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const pathValues: Record<string, string> = {};
    for (const n of names) pathValues[n] = await this.pathValue(op, n);
    const query = (await this.bind(op.example?.query ?? {})) as Record<string, unknown>;
    const hasBody = schemasOf(op).body !== undefined;
    return {
      method: op.method,
      path: op.path,
      pathValues,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      body: hasBody ? await this.bind(op.example?.body ?? {}) : undefined,
    };
  }
}
