/**
 * Resources the edge fuzz suite binds valid requests to, so a mutated request that passes validation reaches
 * its handler with real state: a deal with a key date, a task with a comment, an uploaded document on the
 * deal, a completed (not applied) extraction job, a webhook subscription. Each is made on first use, through
 * the API where it exists, and made again once a request consumed it (deleted, applied).
 */
import { randomUUID } from 'node:crypto';
import { createApiKey } from '#db/api-keys';
import { createTransaction } from '#db/transactions';
import type { ModuleOperation } from '#lib/registry';
import { schemasOf } from '#api/operation';
import type { TestApi, TestOrg } from '../support/http-client.ts';
import type { Credentials, ValidRequest } from '../support/fuzz-request.ts';
import { pdfBytes, uploadAndComplete, waitFor } from './documents-fixtures.ts';

/** Webhook target on loopback (LOCAL_MODE allows plain http there); nothing listens, nothing is delivered here. */
export const HOOK_URL = 'http://127.0.0.1:9/hook';

type Memo = Partial<Record<'deal' | 'task' | 'document' | 'job' | 'webhook', Promise<Record<string, string>>>>;

/** The fixtures of one organization on the current table. */
export class FuzzFixtures {
  private memo: Memo = {};
  private partnerKey?: string;
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

  /** A webhook subscription. */
  webhook = () =>
    this.once('webhook', async () => ({ id: (await this.ok('POST', '/api/v1/webhooks', this.org.keys.actions, { name: 'Fuzz hook', url: HOOK_URL, events: ['*'] })).id }));

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
    ]);
    for (const [name, isGone] of checks) if (isGone) delete this.memo[name];
    // A task or document belongs to the deal: a new deal means new ones.
    if (!this.memo.deal) {
      delete this.memo.task;
      delete this.memo.document;
    }
  }

  /** The API keys a case can present for `op`. */
  async credentials(op: ModuleOperation): Promise<Credentials> {
    if (!this.partnerKey) this.version++;
    this.partnerKey ??= (await createApiKey({ orgId: this.org.orgId, userId: this.org.ownerUserId, name: 'fuzz partner', scopes: [], kind: 'partner' })).value;
    const access = op.access === 'partner' ? 'read' : op.access;
    return {
      valid: op.access === 'partner' ? this.partnerKey : this.org.keys[access],
      otherOrg: this.other.keys[access],
      wrongScope: access === 'read' ? this.org.keys.draft : this.org.keys.read,
      partner: this.partnerKey,
    };
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
        return op.path.startsWith('/api/v1/webhooks/') ? (await this.webhook()).id : randomUUID();
      case 'keyDateType':
        return 'ClosingDate';
      case 'orgId':
        return this.org.orgId;
      case 'userId':
        return this.org.ownerUserId;
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
        return [(await this.document()).documentId];
      case 'url':
        return HOOK_URL;
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
