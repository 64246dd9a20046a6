/**
 * Fixtures of the messaging end-to-end tests: the full local runtime (SMTP server, SMS sink, scheduler, s3rver) on a
 * fresh table, an HTTP client that sends `Idempotency-Key`, organizations and deals, contacts linked to a deal with a
 * role (through the repository: quicker than the contacts API and spends no rate-limit budget; one test links over
 * HTTP), what reached the local SMTP server and
 * SMS sink, an inbound text as AWS End User Messaging publishes it (SNS), and uploaded documents.
 */
import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { SNSEvent } from 'aws-lambda';
import { createApiKey } from '#db/api-keys';
import { getCommunication, type Communication } from '#db/communications';
import { splitName } from '#db/contacts';
import { contactCreateItems } from '#use-cases/contacts';
import { createOrganization } from '#db/orgs';
import { transactWrite } from '#db/transact';
import { createTransaction } from '#use-cases/create-transaction';
import { storedMail } from '#lib/local/smtp-sink';
import { handler as inboundSmsHandler } from '#functions/inbound-sms/handler';
import type { InboundSmsNotification } from '#use-cases/messaging/inbound-texts';
import { startTestRuntime, type TestRuntime } from '../support/runtime-harness.ts';
import { until } from '../support/webhook-receiver.ts';
import { pdfBytes } from './documents-fixtures.ts';

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export type TestOrg = Awaited<ReturnType<typeof createOrganization>>;

/** The runtime of one test file and what its tests need. */
export interface MessagingHarness extends TestRuntime {
  call(method: string, path: string, opts?: { key?: string; body?: unknown; idempotencyKey?: string }): Promise<Reply>;
  /** As `call`, but throws unless the status is 200. @returns the body's `data` */
  ok(method: string, path: string, opts?: { key?: string; body?: unknown; idempotencyKey?: string }): Promise<any>;
  /** Every email the local SMTP server stored, oldest first (raw bytes and envelope). */
  mail(): ReturnType<typeof storedMail>;
  /** Every text the SMS sink recorded, oldest first. */
  texts(): { id: string; from: string; to: string; body: string; sentAt: string }[];
}

/** Starts the full local runtime for a test file (stop it with `close`). */
export async function startMessagingHarness(prefix: string): Promise<MessagingHarness> {
  const runtime = await startTestRuntime(prefix);
  const { rt } = runtime;
  const call: MessagingHarness['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = {};
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(rt.baseUrl + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, body, text };
  };
  return {
    ...runtime,
    call,
    async ok(method, path, opts) {
      const r = await call(method, path, opts);
      if (r.status !== 200) throw new Error(`${method} ${path}: HTTP ${r.status} ${r.text.slice(0, 400)}`);
      return r.body.data;
    },
    mail: () => storedMail(rt.messaging.smtp.directory),
    texts: () => (existsSync(rt.messaging.smsSink) ? readFileSync(rt.messaging.smsSink, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []),
  };
}

/** A new organization whose owner has a name (the sender's display name). */
export const newOrg = (name: string) => createOrganization({ name, ownerEmail: `owner+${randomUUID().slice(0, 8)}@example.test`, ownerFirstName: 'Dana', ownerLastName: 'Whitfield' });

/** A deal of the organization at `street` (Austin, TX 78704). @returns its id */
export async function newDeal(org: TestOrg, street: string): Promise<string> {
  const t = await createTransaction(
    { orgId: org.orgId, userId: org.ownerUserId },
    { propertyAddress: { street, city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract' },
  );
  return t.id;
}

/** A person linked to the deal with `role` (emits `contact.created`). @returns the contact id */
export async function linkContact(org: TestOrg, transactionId: string, p: { name: string; role: string; email?: string | null; phone?: string | null }): Promise<string> {
  const now = new Date().toISOString();
  const id = randomUUID();
  const contact = { id, type: 'person' as const, ...splitName(p.name), name: p.name, email: p.email ?? null, phone: p.phone ?? null, company: null, createdAt: now, updatedAt: now };
  await transactWrite(contactCreateItems({ orgId: org.orgId, userId: org.ownerUserId }, contact, { transactionId, role: p.role }));
  return id;
}

/** A text from `from` to the service's number, delivered as AWS End User Messaging's SNS notification. */
export function inboundText(from: string, body: string) {
  const n: InboundSmsNotification = { originationNumber: from, destinationNumber: '+15550100000', messageBody: body, inboundMessageId: randomUUID() };
  return inboundSmsHandler({ Records: [{ Sns: { Message: JSON.stringify(n) } }] } as unknown as SNSEvent);
}

/** Uploads a small PDF to the deal (no extraction) and waits until it is stored. @returns the document id */
export async function uploadDocument(h: MessagingHarness, org: TestOrg, transactionId: string, fileName: string): Promise<string> {
  const up = await h.ok('POST', '/api/v1/documents', { key: org.keys.draft, body: { fileName, contentBase64: pdfBytes(fileName).toString('base64'), transactionId, extract: false } });
  await until(`${fileName} stored`, async () => (await h.ok('GET', `/api/v1/documents/${up.documentId}`, { key: org.keys.read })).uploadState === 'uploaded', 10_000);
  return up.documentId;
}

/** The value of header `name` in a raw email (unfolded), or undefined. */
export function header(raw: Buffer, name: string): string | undefined {
  const head = raw.toString('utf8').split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1].trim();
}

/** A fresh key of the organization with every scope (each key has its own rate-limit windows). */
export async function freshKey(org: TestOrg): Promise<string> {
  return (await createApiKey({ orgId: org.orgId, userId: org.ownerUserId, name: 'messaging e2e', scopes: ['read', 'draft', 'actions'] })).value;
}

/**
 * The message once the send worker handled it (no longer `queued`: `sent`, or `failed` with a detail), read from the
 * table. Sends leave the request path (issue 24): an operation answers with the message `queued`.
 */
export async function settled(orgId: string, messageId: string, timeoutMs = 20_000): Promise<Communication> {
  return until(`message ${messageId} sent or failed`, async () => {
    const m = await getCommunication(orgId, messageId);
    return m.status === 'queued' ? undefined : m;
  }, timeoutMs);
}
