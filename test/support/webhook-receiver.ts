/**
 * A webhook receiver that behaves like a careful partner endpoint, for end-to-end delivery tests and the
 * webhook benchmark. On 127.0.0.1 (a free port), for every POST it:
 *  1. reads the RAW body bytes and verifies `X-Webhook-Signature` with `verifyWebhookSignature` (constant
 *     time) against each accepted secret — a request no secret verifies is recorded in `badSignatures` and
 *     answered 401, never parsed;
 *  2. only then parses the JSON body;
 *  3. answers according to its behaviour for THIS request (`ok` 200, `fail` 503, `timeout` = never answers
 *     until the client gives up), drawn per request; `random` draws with a seeded PRNG (mulberry32), so the
 *     sequence of outcomes is the same on every run;
 *  4. deduplicates on `X-Webhook-Event-Id`: an event is "received" once it has been processed (answered
 *     `ok`, or `timeout` — a slow endpoint that did the work but whose answer never arrived, the classic
 *     source of redeliveries); every later request for a received id is counted in `duplicates` and not
 *     processed again. A `fail` request is refused before processing, so its event is not received.
 *
 * `received` maps eventId → { eventType, body, headers, attempts, ... } where `attempts` counts every
 * verified request for that id (failed ones before it was received included).
 *
 * The second half of this file is a small harness over the local runtime's HTTP API (subscriptions, events
 * made by API writes, reads of outbox and delivery records) shared by `test/e2e/webhooks-delivery*.test.ts`
 * and `bench/webhooks.ts`; it imports nothing from vitest.
 */
import { assertConforms } from './openapi-conformance.ts';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { createOrganization } from '#db/orgs';
import { createTransaction } from '#use-cases/create-transaction';
import { verifyWebhookSignature } from '#events/signing';

export type Outcome = 'ok' | 'fail' | 'timeout';
export interface RandomBehaviour {
  random: { failRate: number; timeoutRate?: number; seed?: number };
}
/** Per-request behaviour: a fixed outcome, seeded random outcomes, or a function of the request. */
export type Behaviour = Outcome | RandomBehaviour | ((req: { path: string; eventId: string; eventType: string }) => Outcome);

export interface ReceivedEvent {
  eventId: string;
  /** From `X-Webhook-Event-Type`. */
  eventType: string;
  /** The parsed JSON body (after verification). */
  body: any;
  /** The raw body exactly as received. */
  raw: Buffer;
  /** Headers of the request that was processed. */
  headers: http.IncomingHttpHeaders;
  path: string;
  /** The secret that verified the processed request. */
  secret: string;
  /** Verified requests seen for this id so far (failed ones, the processed one and duplicates). */
  attempts: number;
  /** `Date.now()` of the first verified request for this id (whatever its outcome). */
  firstSeenAt: number;
  /** `Date.now()` when it was processed (received). */
  receivedAt: number;
}

export interface BadSignature {
  path: string;
  eventId: string | undefined;
  header: string | undefined;
  at: number;
}

export interface ReceiverStats {
  /** Every request, bad signatures included. */
  requests: number;
  ok: number;
  failed: number;
  timeouts: number;
  /** Requests for an event already received (redeliveries dropped by the dedupe). */
  duplicates: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` (after `start()`). */
  readonly url: string;
  /** Processed events by id (deduplicated). */
  readonly received: Map<string, ReceivedEvent>;
  /** Requests that no accepted secret verified. */
  readonly badSignatures: BadSignature[];
  /** Verified requests per event id, whether or not the event was received. */
  readonly attemptsById: Map<string, number>;
  /** `Date.now()` of the first verified request per event id, whether or not the event was received. */
  readonly firstSeenById: Map<string, number>;
  readonly stats: ReceiverStats;
  /** Accepted signing secrets (the first one that verifies wins). */
  secrets: string[];
  /** Behaviour for the following requests. Setting a `random` behaviour (re)seeds the PRNG. */
  behaviour: Behaviour;
  /** Replaces the accepted secrets with one (or several). */
  setSecret(secret: string | string[]): void;
  start(): Promise<WebhookReceiver>;
  /**
   * Polls `predicate` every 20 ms until it is true. @returns true, or false when `timeoutMs` passed first
   * (never throws, so callers decide how to report).
   */
  waitFor(predicate: (r: WebhookReceiver) => boolean, timeoutMs: number): Promise<boolean>;
  /** Closes the server and every open connection (requests left hanging by `timeout` included). */
  close(): Promise<void>;
}

/** mulberry32: a tiny, seedable PRNG with a good enough spread for test outcomes. Values in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const header = (h: http.IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

export function createWebhookReceiver(opts: { secrets?: string | string[]; behaviour?: Behaviour } = {}): WebhookReceiver {
  let url = '';
  let server: http.Server | undefined;
  let behaviour: Behaviour = opts.behaviour ?? 'ok';
  let rand = mulberry32(1);
  const reseed = (b: Behaviour) => {
    if (typeof b === 'object') rand = mulberry32(b.random.seed ?? 1);
  };
  reseed(behaviour);
  const hanging = new Set<http.ServerResponse>();

  const draw = (b: Behaviour, info: { path: string; eventId: string; eventType: string }): Outcome => {
    if (typeof b === 'string') return b;
    if (typeof b === 'function') return b(info);
    const x = rand();
    const { failRate, timeoutRate = 0 } = b.random;
    return x < failRate ? 'fail' : x < failRate + timeoutRate ? 'timeout' : 'ok';
  };

  const r: WebhookReceiver = {
    get url() {
      return url;
    },
    received: new Map(),
    badSignatures: [],
    attemptsById: new Map(),
    firstSeenById: new Map(),
    stats: { requests: 0, ok: 0, failed: 0, timeouts: 0, duplicates: 0 },
    secrets: opts.secrets === undefined ? [] : Array.isArray(opts.secrets) ? [...opts.secrets] : [opts.secrets],
    get behaviour() {
      return behaviour;
    },
    set behaviour(b: Behaviour) {
      behaviour = b;
      reseed(b);
    },
    setSecret(secret) {
      r.secrets = Array.isArray(secret) ? [...secret] : [secret];
    },

    async start() {
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => handle(req, res, Buffer.concat(chunks)));
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(0, '127.0.0.1', () => resolve());
      });
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      return r;
    },

    async waitFor(predicate, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (predicate(r)) return true;
        if (Date.now() >= deadline) return false;
        await new Promise((res) => setTimeout(res, 20));
      }
    },

    close() {
      return new Promise<void>((resolve) => {
        if (!server) return resolve();
        for (const res of hanging) res.destroy();
        hanging.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };

  function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): void {
    const now = Date.now();
    r.stats.requests++;
    const path = req.url ?? '';
    const eventId = header(req.headers, 'x-webhook-event-id');
    const signature = header(req.headers, 'x-webhook-signature');
    // Verify over the raw bytes before anything else; parse only what verified.
    const secret = r.secrets.find((s) => verifyWebhookSignature(s, raw, signature));
    if (secret === undefined) {
      r.badSignatures.push({ path, eventId, header: signature, at: now });
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad signature"}');
      return;
    }
    if (!eventId) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"no X-Webhook-Event-Id"}');
      return;
    }
    const eventType = header(req.headers, 'x-webhook-event-type') ?? '';
    const attempts = (r.attemptsById.get(eventId) ?? 0) + 1;
    r.attemptsById.set(eventId, attempts);
    const seen = r.received.get(eventId);
    if (seen) seen.attempts = attempts;
    if (!r.firstSeenById.has(eventId)) r.firstSeenById.set(eventId, now);
    const firstSeenAt = r.firstSeenById.get(eventId)!;

    const outcome = draw(behaviour, { path, eventId, eventType });
    if (outcome === 'fail') {
      r.stats.failed++;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
      return;
    }
    if (seen) r.stats.duplicates++;
    else {
      let body: any;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      r.received.set(eventId, { eventId, eventType, body, raw, headers: req.headers, path, secret, attempts, firstSeenAt, receivedAt: now });
    }
    if (outcome === 'timeout') {
      // Processed, but the answer never comes: the sender times out and retries (a duplicate for us).
      r.stats.timeouts++;
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    r.stats.ok++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  }

  return r;
}

/** Creates and starts a receiver. */
export function startWebhookReceiver(opts: { secrets?: string | string[]; behaviour?: Behaviour } = {}): Promise<WebhookReceiver> {
  return createWebhookReceiver(opts).start();
}

// ───────────────────────────── pipeline harness ─────────────────────────────
// Small helpers shared by the delivery end-to-end tests and `bench/webhooks.ts`: an HTTP client for the
// local runtime, subscriptions, events produced by real API writes, and reads of the table. No vitest
// imports here, so the benchmark can use them too.

export interface ApiResult {
  status: number;
  body: any;
  text: string;
}

export interface Api {
  /** The runtime's base URL; reassign after a restart (a new port). */
  baseUrl: string;
  call(method: string, path: string, opts?: { key?: string; body?: unknown }): Promise<ApiResult>;
  /** As `call`, but throws unless the status is 200. @returns the parsed body */
  ok(method: string, path: string, opts?: { key?: string; body?: unknown }): Promise<any>;
}

export function apiClient(baseUrl: string): Api {
  const api: Api = {
    baseUrl,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = {};
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(api.baseUrl + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const text = await res.text();
      await assertConforms({ method, path, status: res.status, headers: res.headers, text });
      let body: any;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.status, body, text };
    },
    async ok(method, path, opts) {
      const r = await api.call(method, path, opts);
      if (r.status !== 200) throw new Error(`${method} ${path}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
      return r.body;
    },
  };
  return api;
}

/**
 * Subscribes `url` over HTTP (POST), then sets `timeoutSeconds` (default 1) and any other replaceable
 * field with a PUT (create does not take them). @returns the id and the full signing secret
 */
export async function subscribe(
  api: Api,
  key: string,
  url: string,
  over: { events?: string[]; name?: string; circuitBreakerEnabled?: boolean; timeoutSeconds?: number; isActive?: boolean } = {},
): Promise<{ id: string; secret: string; url: string }> {
  const base = { name: over.name ?? 'e2e receiver', url, events: over.events ?? ['*'] };
  const created = (await api.ok('POST', '/api/v1/webhooks', { key, body: base })).data;
  const { events: _e, name: _n, ...rest } = over;
  await api.ok('PUT', `/api/v1/webhooks/${created.id}`, { key, body: { ...base, timeoutSeconds: 1, ...rest } });
  return { id: created.id, secret: created.secret, url };
}

/** A new organization (operator path): ids and its starter keys `read`, `draft`, `actions`. */
export function newOrg(name = 'Hook Realty') {
  return createOrganization({ name, ownerEmail: `owner+${randomUUID().slice(0, 8)}@example.test` });
}

/** A deal of the organization (repository path; commits `transaction.created`). @returns its id */
export async function newDeal(org: { orgId: string; ownerUserId: string }, street = '1 Hook St'): Promise<string> {
  const t = await createTransaction(
    { orgId: org.orgId, userId: org.ownerUserId },
    { propertyAddress: { street, city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Prospect' },
  );
  return t.id;
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Makes events through the API on one deal, exactly one outbox event per request, cycling through: a key
 * date set to a new value (`key_date.updated`), a task created (`task.created`), a task completed
 * (`task.completed`) and a status toggled between two statuses without cascade (`transaction.status_changed`).
 * Key dates and tasks use the draft key, statuses the actions key.
 */
export class EventMaker {
  private n = 0;
  private openTasks: string[] = [];
  private status = 'Prospect';
  constructor(
    private readonly api: Api,
    private readonly keys: { draft: string; actions: string },
    readonly dealId: string,
  ) {}

  /** Commits one event. @returns its kind */
  async one(): Promise<string> {
    const i = this.n++;
    const kind = ['keyDate', 'taskCreate', 'taskComplete', 'status'][i % 4];
    const txn = `/api/v1/transactions/${this.dealId}`;
    if (kind === 'keyDate') {
      const types = ['EffectiveDate', 'InspectionDeadline', 'EarnestMoneyDue', 'ClosingDate'];
      await this.api.ok('POST', `${txn}/key-dates`, { key: this.keys.draft, body: { keyDates: [{ keyDateType: types[(i >> 2) % 4], dateValue: addDays('2027-01-01', i) }] } });
    } else if (kind === 'taskCreate' || !this.openTasks.length) {
      const r = await this.api.ok('POST', `${txn}/tasks`, { key: this.keys.draft, body: { title: `E2E task ${i}` } });
      this.openTasks.push(r.data.id);
      return 'taskCreate';
    } else if (kind === 'taskComplete') {
      await this.api.ok('POST', `/api/v1/tasks/${this.openTasks.shift()}/complete`, { key: this.keys.draft, body: { note: 'done' } });
    } else {
      this.status = this.status === 'Prospect' ? 'Active Listing' : 'Prospect';
      await this.api.ok('PATCH', `${txn}/status`, { key: this.keys.actions, body: { status: this.status } });
    }
    return kind;
  }

  /** Commits `count` events one after another. */
  async commit(count: number): Promise<void> {
    for (let i = 0; i < count; i++) await this.one();
  }
}

/** Every committed outbox event (the envelopes) of an organization, read from the table with a consistent scan. */
export async function outboxEvents(orgId: string): Promise<{ eventId: string; eventType: string; timestamp: string; organizationId: string; data: any }[]> {
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new ScanCommand({ TableName: tableName(), FilterExpression: 'entity = :e AND orgId = :o', ExpressionAttributeValues: { ':e': 'OutboxEvent', ':o': orgId }, ExclusiveStartKey, ConsistentRead: true }),
    );
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.map((i) => i.envelope);
}

/** The delivery records (one per event) of a subscription, from the table: eventId → status and attemptCount. */
export async function deliveryRecords(orgId: string, subscriptionId: string): Promise<Map<string, { status: string; attemptCount: number; nextRetryAt: string | null }>> {
  const found = new Map<string, { status: string; attemptCount: number; nextRetryAt: string | null }>();
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :d)',
        ExpressionAttributeValues: { ':pk': `ORG#${orgId}#WEBHOOK#${subscriptionId}`, ':d': 'DLV#' },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const i of out.Items ?? []) found.set(i.eventId, { status: i.status, attemptCount: Number(i.attemptCount ?? 0), nextRetryAt: i.nextRetryAt ?? null });
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return found;
}

/** Every attempt listed by `GET /webhooks/{id}/deliveries` (paged with limit 100), newest first. */
export async function listAllAttempts(api: Api, key: string, subscriptionId: string): Promise<any[]> {
  const all: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await api.ok('GET', `/api/v1/webhooks/${subscriptionId}/deliveries?limit=100&offset=${offset}`, { key })).data as any[];
    all.push(...page);
    if (page.length < 100) return all;
  }
}

/**
 * Polls `check` (every `intervalMs`, default 50) until it returns a truthy value.
 * @throws Error naming `what` (and `detail()`, when given) once `timeoutMs` has passed
 */
export async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs: number, opts: { intervalMs?: number; detail?: () => unknown } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${opts.detail ? `: ${JSON.stringify(opts.detail())}` : ''}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}
